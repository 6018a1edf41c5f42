"""B03's Nsight Compute rule (ncu_rules/b03_bottleneck.py): its classifier on hand-made counters.

Each case is the signature the README derives for one kind of limiter (section 2), written as
the counters Nsight Compute would report; the expected limiter comes from that derivation, not
from running the rule. NvRules exists only inside Nsight Compute, so a stub stands in for it;
apply() is exercised against a stub context too.
"""
import os
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree


class _Frontend:
    def __init__(self):
        self.messages = []

    def message(self, kind, text, name=None):
        self.messages.append((kind, text, name))


class _Metric:
    def __init__(self, value):
        self.value = value

    def as_double(self):
        return self.value


class _Action:
    def __init__(self, values):
        self.values = values

    def metric_by_name(self, name):
        return _Metric(self.values[name]) if name in self.values else None

    def name(self):
        return "mystery_1"

    def nvtx_state(self):
        raise RuntimeError("no NVTX in this stub")


class _Range:
    def __init__(self, action):
        self.action = action

    def action_by_idx(self, i):
        return self.action


class _Context:
    def __init__(self, action):
        self.range = _Range(action)
        self.fe = _Frontend()

    def range_by_idx(self, i):
        return self.range

    def frontend(self):
        return self.fe


def _stub_nvrules():
    module = types.ModuleType("NvRules")
    module.IFrontend = types.SimpleNamespace(MsgType_MSG_WARNING=2)
    module.required = []
    module.require_metrics = lambda handle, names: module.required.extend(names)
    module.get_context = lambda handle: handle
    return module


sys.modules["NvRules"] = _stub_nvrules()
sys.path.insert(0, os.path.join(HERE, "..", "ncu_rules"))
import b03_bottleneck as rule  # noqa: E402


def counters(**named):
    """Every counter of the section at a neutral value, then the ones a case sets (short names)."""
    m = {name: 0.0 for name in rule.METRICS}
    short = {"dram": rule.DRAM, "sm": rule.SM, "occupancy": rule.OCCUPANCY, "waves": rule.WAVES,
             "fma_pipe": rule.FMA_PIPE, "thread_inst": rule.THREAD_INST, "ffma": rule.FFMA, "fadd": rule.FADD,
             "wavefronts": rule.SHARED_WAVEFRONTS, "conflicts": rule.SHARED_CONFLICTS,
             "long_scoreboard": rule.STALL_LONG_SCOREBOARD}
    for key, value in named.items():
        m[short[key]] = value
    return m


class Classifier(unittest.TestCase):
    def test_a_stream_at_the_dram_roof_is_hbm_bound(self):
        # A streaming kernel: DRAM near its peak, the SM far below it.
        limiter, evidence = rule.classify(counters(dram=91.0, sm=18.0, thread_inst=1e9, ffma=2.5e8))
        self.assertEqual(limiter, "HBM bandwidth")
        self.assertIn(rule.DRAM, evidence)

    def test_fma_chains_with_little_else_are_fma_bound(self):
        # 256 FFMA per element and a handful of other instructions: FP32 is ~97% of them.
        limiter, evidence = rule.classify(counters(dram=4.0, sm=93.0, fma_pipe=92.0, thread_inst=1e12, ffma=9.7e11))
        self.assertEqual(limiter, "FP32 FMA throughput")
        self.assertIn(rule.FMA_PIPE, evidence)

    def test_a_busy_sm_that_does_almost_no_math_is_not_compute_bound(self):
        # About 140 integer instructions per element and one FFMA: FP32 is under 1% of them.
        limiter, evidence = rule.classify(counters(dram=42.0, sm=88.0, fma_pipe=55.0, thread_inst=7e9, ffma=5e7))
        self.assertEqual(limiter, "issue slots spent on work that is not floating-point math")
        self.assertIn("0.7%", evidence)

    def test_conflict_replays_name_the_bank_conflict_whatever_else_is_low(self):
        # 32-way conflicts: 1056 wavefronts per warp where 64 would do, 992 of them replays.
        limiter, evidence = rule.classify(counters(dram=6.0, sm=35.0, wavefronts=1056.0, conflicts=992.0))
        self.assertEqual(limiter, "shared-memory bank conflicts")
        self.assertIn("94%", evidence)

    def test_a_few_conflicts_do_not_outrank_the_real_limiter(self):
        limiter, _ = rule.classify(counters(dram=90.0, sm=20.0, wavefronts=1000.0, conflicts=10.0))
        self.assertEqual(limiter, "HBM bandwidth")

    def test_nothing_busy_and_few_warps_is_latency(self):
        # 40 blocks of 4 warps on 132 SMs of 64 warps: an SM holds 64 / 4 = 16 such blocks, so the
        # grid is 40 / (132 x 16) = 0.02 waves, and an SM with a block has 4 of its 64 warps (6.25%).
        limiter, evidence = rule.classify(counters(dram=7.0, sm=5.0, occupancy=6.2, waves=0.02, long_scoreboard=30.0))
        self.assertEqual(limiter, "latency: too little parallelism to hide it")
        self.assertIn(rule.OCCUPANCY, evidence)
        self.assertIn(rule.STALL_LONG_SCOREBOARD, evidence)

    def test_between_the_thresholds_it_says_so(self):
        limiter, _ = rule.classify(counters(dram=50.0, sm=45.0, thread_inst=1e9, ffma=3e8))
        self.assertEqual(limiter, "no single limiter")

    def test_missing_counters_read_as_zero(self):
        limiter, _ = rule.classify({rule.DRAM: 80.0, rule.SM: None})
        self.assertEqual(limiter, "HBM bandwidth")


class RuleEntryPoints(unittest.TestCase):
    def test_the_rule_belongs_to_its_section_and_asks_for_every_counter(self):
        self.assertEqual(rule.get_section_identifier(), "B03Mystery")
        sys.modules["NvRules"].required.clear()
        rule.evaluate(None)
        self.assertEqual(sorted(sys.modules["NvRules"].required), sorted(rule.METRICS))

    def test_every_counter_is_in_the_section_file(self):
        with open(os.path.join(HERE, "..", "ncu_rules", "B03Mystery.section")) as f:
            section = f.read()
        for name in rule.METRICS:
            self.assertIn(f'Name: "{name}"', section)

    def test_apply_writes_one_warning_naming_the_kernel_and_its_limiter(self):
        ctx = _Context(_Action(counters(dram=91.0, sm=18.0)))
        rule.apply(ctx)
        self.assertEqual(len(ctx.fe.messages), 1)
        kind, text, _ = ctx.fe.messages[0]
        self.assertEqual(kind, 2)
        self.assertTrue(text.startswith("mystery_1: top limiter: HBM bandwidth."))


if __name__ == "__main__":
    unittest.main()
