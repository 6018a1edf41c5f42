# B03: a project rule for Nsight Compute that names a kernel's top limiter from the counters of the
# B03Mystery section (B03Mystery.section, beside this file) and says which two counters prove it.
#
#   ncu --section-folder trackB/b03_profiling/ncu_rules --section B03Mystery \
#       --nvtx --nvtx-include "mystery_3/" --launch-count 1 ./build/b03_mystery --kernel 3 --reps 1
#
# Nsight Compute loads the rule with the section (--section-folder replaces its default search path,
# so only this folder's section is offered) and prints the rule's message under the section's table.
# The rule API is NvRules (Nsight Compute Customization Guide, "Rule Files"; NvRules API reference).
# classify() holds the decision and takes plain numbers, so tests/ncu_rule_test.py checks it
# without Nsight Compute.
#
# The thresholds follow Nsight Compute's own speed-of-light rule: a unit above 60% of its peak is
# where a kernel's time goes, and below 60% on every unit the kernel waits on latency.
import NvRules

# Metric names on Hopper (sm_90); Nsight Compute Kernel Profiling Guide, "Metrics Reference".
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
SM = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
L2_HIT = "lts__t_sector_hit_rate.pct"
OCCUPANCY = "sm__warps_active.avg.pct_of_peak_sustained_active"
WAVES = "launch__waves_per_multiprocessor"
ISSUE = "smsp__issue_active.avg.pct_of_peak_sustained_active"
FMA_PIPE = "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"
ALU_PIPE = "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active"
TENSOR_PIPE = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
THREAD_INST = "smsp__thread_inst_executed.sum"
FFMA = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
FADD = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"
FMUL = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"
SHARED_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SHARED_CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
STALL_LONG_SCOREBOARD = "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"
STALL_MIO = "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio"
CYCLES_PER_ISSUE = "smsp__average_warp_latency_per_inst_issued.ratio"

METRICS = [DRAM, SM, L2_HIT, OCCUPANCY, WAVES, ISSUE, FMA_PIPE, ALU_PIPE, TENSOR_PIPE, THREAD_INST, FFMA, FADD,
           FMUL, SHARED_WAVEFRONTS, SHARED_CONFLICTS, STALL_LONG_SCOREBOARD, STALL_MIO, CYCLES_PER_ISSUE]

BUSY = 60.0          # % of peak: this unit is where the time goes
IDLE = 40.0          # % of peak: this unit waits
CONFLICTED = 0.5     # share of shared-load wavefronts that are bank-conflict replays
USEFUL_MATH = 0.5    # share of thread instructions that are FP32 FADD/FMUL/FFMA in a math-bound kernel
LITTLE_MATH = 0.2    # below this share the SM is busy with other work (integer, control, conversions)


def classify(m):
    """Names the top limiter of one kernel from its counters (a dict of metric name to number, a
    missing counter None). Returns (limiter, evidence): a short name, and the two counters that prove
    it with their values, in the words of B03's exercises."""
    def get(name, default=0.0):
        value = m.get(name)
        return default if value is None else float(value)

    dram, sm = get(DRAM), get(SM)
    wavefronts, conflicts = get(SHARED_WAVEFRONTS), get(SHARED_CONFLICTS)
    thread_inst = get(THREAD_INST)
    fp32 = get(FFMA) + get(FADD) + get(FMUL)
    fp32_share = fp32 / thread_inst if thread_inst > 0 else 0.0

    if wavefronts > 0 and conflicts / wavefronts >= CONFLICTED:
        return ("shared-memory bank conflicts",
                f"{SHARED_CONFLICTS} = {conflicts:.4g} of {SHARED_WAVEFRONTS} = {wavefronts:.4g} "
                f"({100 * conflicts / wavefronts:.0f}% of the shared-load passes are conflict replays); "
                f"{STALL_MIO} = {get(STALL_MIO):.2f} warps stalled per issue")
    if dram >= BUSY and dram >= sm:
        return ("HBM bandwidth",
                f"{DRAM} = {dram:.1f}% while {SM} = {sm:.1f}%: the DRAM interface is the busiest unit")
    if sm >= BUSY and fp32_share >= USEFUL_MATH:
        return ("FP32 FMA throughput",
                f"{FMA_PIPE} = {get(FMA_PIPE):.1f}% with FP32 arithmetic {100 * fp32_share:.0f}% of the thread "
                f"instructions; {DRAM} = {dram:.1f}% ({TENSOR_PIPE} = {get(TENSOR_PIPE):.1f}%: no tensor cores)")
    if sm >= BUSY and fp32_share < LITTLE_MATH:
        return ("issue slots spent on work that is not floating-point math",
                f"{SM} = {sm:.1f}% ({ISSUE} = {get(ISSUE):.1f}%, {ALU_PIPE} = {get(ALU_PIPE):.1f}%, {FMA_PIPE} = "
                f"{get(FMA_PIPE):.1f}%) but FP32 arithmetic is {100 * fp32_share:.1f}% of {THREAD_INST} = "
                f"{thread_inst:.4g}: the SM is busy, the math is not; {DRAM} = {dram:.1f}%")
    if dram < IDLE and sm < IDLE:
        return ("latency: too little parallelism to hide it",
                f"{OCCUPANCY} = {get(OCCUPANCY):.1f}% ({WAVES} = {get(WAVES):.2f}) and "
                f"{STALL_LONG_SCOREBOARD} = {get(STALL_LONG_SCOREBOARD):.2f} warps waiting on memory per issue; "
                f"{DRAM} = {dram:.1f}%, {SM} = {sm:.1f}%: no unit is busy")
    return ("no single limiter",
            f"{DRAM} = {dram:.1f}%, {SM} = {sm:.1f}%: between the thresholds; read the memory and warp-state "
            f"sections next")


def get_identifier():
    return "B03Bottleneck"


def get_name():
    return "B03: top limiter"


def get_description():
    return "Names the top limiter of a kernel from the B03Mystery section's counters, with the two that prove it."


def get_section_identifier():
    return "B03Mystery"


def evaluate(handle):
    NvRules.require_metrics(handle, METRICS)


def _action(ctx):
    # range_by_idx/action_by_idx in the NvRules of Nsight Compute 2019-2024; indexing in later releases.
    if hasattr(ctx, "range_by_idx"):
        return ctx.range_by_idx(0).action_by_idx(0)
    return ctx[0][0]


def _range_name(action):
    """The innermost NVTX push/pop range named mystery_N or fix_N around this kernel, if any."""
    try:
        state = action.nvtx_state()
        for domain_id in state.domains():
            for name in state.domain_by_id(domain_id).push_pop_ranges():
                if name.startswith(("mystery_", "fix_")):
                    return name
    except Exception:  # NVTX not collected (no --nvtx) or an API without these calls
        pass
    return None


def apply(handle):
    ctx = NvRules.get_context(handle)
    action = _action(ctx)
    frontend = ctx.frontend()
    values = {}
    for name in METRICS:
        metric = action.metric_by_name(name)
        values[name] = metric.as_double() if metric is not None else None
    limiter, evidence = classify(values)
    label = _range_name(action) or action.name()
    # MsgType_MSG_WARNING until it was deprecated for IFrontend.MsgType.WARNING (NvRules API reference).
    if hasattr(NvRules.IFrontend, "MsgType_MSG_WARNING"):
        warning = NvRules.IFrontend.MsgType_MSG_WARNING
    else:
        warning = NvRules.IFrontend.MsgType.WARNING
    frontend.message(warning, f"{label}: top limiter: {limiter}. Proof: {evidence}.", "B03: top limiter")
