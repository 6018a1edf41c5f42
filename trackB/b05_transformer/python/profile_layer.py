"""profile_layer: one Llama-style decoder layer in PyTorch, sub-op by sub-op, timed with torch.profiler.

The PyTorch counterpart of `b05_transformer profile` (profile_command.cpp): the same eleven sub-ops
(attn_norm, qkv_proj, rope, attention, o_proj, attn_residual, mlp_norm, gate_up_proj, silu_mul,
down_proj, mlp_residual) of the same layer, in bf16, for the same steps (prefill batch x seq, decode
batch at a context), written as the same record schema (common/python/tutor_record.py), so the two
tables can be read side by side. What differs, on purpose: each sub-op is what eager PyTorch runs
for it (F.rms_norm, F.linear through cuBLAS, F.scaled_dot_product_attention with its default
backend, F.silu), so a sub-op may be several kernels; the KV cache is kept (batch, kv_heads,
tokens, head_dim), the layout SDPA reads.

Usage, from the repository root (the H200 machine has torch):
    python3 trackB/b05_transformer/python/profile_layer.py [--model llama-3.1-8b | --config FILE]
        [--batch B (--seq S | --context L)] [--reps 50] [--warmup 5] [--json PATH] [--list]

Timing: torch.profiler (CUDA activity) around `reps` calls of each sub-op after `warmup` calls; each
call is wrapped in torch.profiler.record_function(<sub-op>), and its device time is the sum of the
kernels launched inside that range; median, min and max over the calls. The L2 is flushed (a 256 MiB
buffer zeroed, outside the ranges) before every call, as the C++ profile does. torch.cuda events
around the same calls are recorded beside it as a cross-check (they include launch gaps).

Checks: each sub-op's output is poisoned (NaN) before a call and compared on sampled token rows with
a float64 reference computed from the same bf16 inputs; relative L2 error within
2 u_bf16 + 8 u_fp32 sqrt(k) (bf16_output_tolerance in profile_model.hpp; attention one u_bf16 more,
see tolerance()), any NaN fails. GEMMs keep
fp32 partial sums (torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False), the
arithmetic the C++ profile asks cuBLAS for.

Exit codes: 0 ok, 1 a check failed, 2 bad input, 3 no GPU or no torch.
"""
import argparse
import json
import math
import os
import statistics
import sys

PROG = "profile_layer.py"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(REPO, "common", "python"))
import tutor_record  # noqa: E402  (the path above is where it lives)

SUB_OPS = ["attn_norm", "qkv_proj", "rope", "attention", "o_proj", "attn_residual",
           "mlp_norm", "gate_up_proj", "silu_mul", "down_proj", "mlp_residual"]
ROPE_BASE, RMS_EPS = 500000.0, 1e-5  # Llama 3's rope_theta and rms_norm_eps, as the C++ profile
SAMPLED_ROWS = 4
MAX_STEP_TOKENS, MAX_CACHED_TOKENS = 65536, 1 << 22  # the C++ profile's limits (profile_command.cpp)
LLAMA_STYLE = ("llama", "mistral", "granite")  # model types whose layer is the one profiled here


def fail_usage(msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    return 2


def tolerance(k, op=""):
    """2 u_bf16 + 8 u_fp32 sqrt(k): profile_model.hpp's bf16_output_tolerance; one u_bf16 more for
    attention, whose fused kernels round the probabilities to bf16 before P V (FlashAttention-2,
    Dao 2023, sec. 3.1: P is cast to the input type for the second matrix product)."""
    return (3 if op == "attention" else 2) * 2.0 ** -8 + 8 * 2.0 ** -24 * math.sqrt(max(k, 1))


def positive_int(cfg, key, option, default=None):
    """cfg[key] as a positive integer (default when the key is absent or null), else ValueError."""
    v = cfg.get(key)
    if v is None:
        v = default
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ValueError(f"{option}: {key}: must be a positive integer, got {v!r}")
    return v


def read_layer(args):
    """The layer's sizes from a shipped config (data/models/<name>.json) or a config.json."""
    option = "--config" if args.config else "--model"
    if not args.config and (os.sep in args.model or args.model.startswith(".")):
        raise ValueError("--model: give a shipped config's file stem (b05_transformer --list-models), not a path")
    path = args.config or os.path.join(REPO, "data", "models", f"{args.model}.json")
    try:
        with open(path) as f:
            cfg = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{option}: cannot read {path}: {e}")
    if isinstance(cfg, dict):
        cfg = cfg.get("text_config", cfg)
    if not isinstance(cfg, dict):
        raise ValueError(f"{option}: {path}: not a JSON object (a config.json)")
    if cfg.get("model_type") not in LLAMA_STYLE:
        raise ValueError(f"{option}: model_type {cfg.get('model_type')!r} is not one of {', '.join(LLAMA_STYLE)} "
                         "(the C++ profile reads every Llama-style family)")
    if cfg.get("attention_bias") or cfg.get("mlp_bias") or cfg.get("sliding_window") not in (None, 0):
        raise ValueError(f"{option}: biases or a sliding window: not the Llama-style layer profiled here")
    hidden, heads = positive_int(cfg, "hidden_size", option), positive_int(cfg, "num_attention_heads", option)
    layer = {"hidden": hidden, "heads": heads, "kv_heads": positive_int(cfg, "num_key_value_heads", option, heads),
             "head_dim": positive_int(cfg, "head_dim", option, hidden // heads),
             "intermediate": positive_int(cfg, "intermediate_size", option)}
    if layer["head_dim"] % 2 or heads % layer["kv_heads"]:
        raise ValueError(f"{option}: head_dim must be even and heads a multiple of kv_heads")
    return layer


def phases_of(args):
    """The steps asked for, within the C++ profile's limits (profile_command.cpp, check_phase)."""
    if args.seq and args.context:
        raise ValueError("--seq/--context: give one of them (a prefill or a decode step), not both")
    if args.seq:
        if (args.batch or 1) * args.seq > MAX_STEP_TOKENS:
            raise ValueError(f"--batch x --seq: at most {MAX_STEP_TOKENS} tokens in one step, got "
                             f"{args.batch or 1} x {args.seq}")
        return [("prefill", args.batch or 1, args.seq)]
    if args.context:
        if (args.batch or 1) * args.context > MAX_CACHED_TOKENS:
            raise ValueError(f"--batch x --context: at most {MAX_CACHED_TOKENS} cached tokens, got "
                             f"{args.batch or 1} x {args.context}")
        return [("decode", args.batch or 1, args.context)]
    if args.batch:
        raise ValueError("--batch: give --seq S (a prefill) or --context L (a decode step) with it")
    return [("prefill", 1, 2048), ("decode", 1, 2048), ("decode", 32, 2048), ("decode", 256, 2048)]


def phase_id(kind, batch, length):
    return f"prefill_b{batch}_s{length}" if kind == "prefill" else f"decode_b{batch}_c{length}"


def costs(layer, kind, batch, length):
    """FLOPs and minimum bytes per sub-op: the same formulas as profile_model.cpp (layer_costs)."""
    h, f, d = layer["hidden"], layer["intermediate"], layer["head_dim"]
    qw, kvw = layer["heads"] * d, layer["kv_heads"] * d
    w = qw + 2 * kvw
    t = batch * length if kind == "prefill" else batch
    pairs = batch * length * (length + 1) / 2 if kind == "prefill" else batch * length
    gemm = lambda i, o: (2 * t * i * o, 2 * (t * i + i * o + t * o), i)  # noqa: E731
    return {"attn_norm": (0, 2 * (2 * t * h + h), h), "qkv_proj": gemm(h, w), "rope": (0, 2 * 2 * t * w, 1),
            "attention": (4 * layer["heads"] * d * pairs, 2 * (2 * t * qw + 2 * batch * length * kvw), max(length, d)),
            "o_proj": gemm(qw, h), "attn_residual": (0, 2 * 3 * t * h, 1), "mlp_norm": (0, 2 * (2 * t * h + h), h),
            "gate_up_proj": gemm(h, 2 * f), "silu_mul": (0, 2 * 3 * t * f, 1), "down_proj": gemm(f, h),
            "mlp_residual": (0, 2 * 3 * t * h, 1)}


class Layer:
    """The layer's tensors for one step and one callable per sub-op, each writing its own output."""

    def __init__(self, torch, F, layer, kind, batch, length, seed):
        self.torch, self.F = torch, F
        h, f, d, nq, nkv = (layer[k] for k in ("hidden", "intermediate", "head_dim", "heads", "kv_heads"))
        self.h, self.f, self.d, self.nq, self.nkv = h, f, d, nq, nkv
        self.kind, self.batch, self.length = kind, batch, length
        self.tokens = batch * length if kind == "prefill" else batch
        self.tps = length if kind == "prefill" else 1
        self.first = 0 if kind == "prefill" else length - 1
        g = torch.Generator(device="cuda").manual_seed(seed)
        uni = lambda shape, lo, hi: (torch.rand(shape, generator=g, device="cuda") * (hi - lo) + lo).to(torch.bfloat16)  # noqa: E731
        a = lambda fan_in: 1 / math.sqrt(fan_in)  # noqa: E731
        qw, kvw = nq * d, nkv * d
        self.x = uni((self.tokens, h), -1, 1)
        self.attn_norm_w, self.mlp_norm_w = uni((h,), 0.5, 1.5), uni((h,), 0.5, 1.5)
        self.w_qkv = uni((qw + 2 * kvw, h), -a(h), a(h))
        self.w_o = uni((h, qw), -a(qw), a(qw))
        self.w_gate_up = uni((2 * f, h), -a(h), a(h))
        self.w_down = uni((h, f), -a(f), a(f))
        self.k_cache = uni((batch, nkv, length, d), -1, 1)  # decode: the earlier tokens; rope writes the new one
        self.v_cache = uni((batch, nkv, length, d), -1, 1)
        pos = torch.arange(self.first, self.first + self.tps, device="cuda", dtype=torch.float32)
        inv_freq = (ROPE_BASE ** (-torch.arange(0, d, 2, device="cuda", dtype=torch.float64) / d)).float()
        self.angle = pos[:, None] * inv_freq[None, :]  # (tps, d/2), fp32, as transformers computes it
        self.cos, self.sin = torch.cos(self.angle), torch.sin(self.angle)
        self.out = {}  # each sub-op's latest output

    def rotate(self, t):
        """Half-split RoPE (transformers' rotate_half) of t (batch, heads, tps, d), in fp32, back to bf16."""
        d2 = self.d // 2
        x0, x1 = t[..., :d2].float(), t[..., d2:].float()
        c, s = self.cos[None, None], self.sin[None, None]
        return self.torch.cat([x0 * c - x1 * s, x1 * c + x0 * s], dim=-1).to(self.torch.bfloat16)

    def heads_of(self, qkv, first, count):
        """Columns [first, first + count) heads of the fused projection as (batch, heads, tps, d)."""
        cols = qkv[:, first * self.d:(first + count) * self.d]
        return cols.reshape(self.batch, self.tps, count, self.d).transpose(1, 2)

    def run(self, op):
        """One call of op as eager PyTorch runs it: a fresh output (no extra copy), except rope's cache
        stores, which write in place as a serving engine's cache does."""
        F, o = self.F, self.out
        if op == "attn_norm":
            o[op] = F.rms_norm(self.x, (self.h,), self.attn_norm_w, RMS_EPS)
        elif op == "qkv_proj":
            o[op] = F.linear(o["attn_norm"], self.w_qkv)
        elif op == "rope":
            qkv = o["qkv_proj"]
            o[op] = self.rotate(self.heads_of(qkv, 0, self.nq))
            slots = slice(self.first, self.first + self.tps)
            self.k_cache[:, :, slots] = self.rotate(self.heads_of(qkv, self.nq, self.nkv))
            self.v_cache[:, :, slots] = self.heads_of(qkv, self.nq + self.nkv, self.nkv)
        elif op == "attention":
            o[op] = F.scaled_dot_product_attention(o["rope"], self.k_cache, self.v_cache,
                                                   is_causal=self.kind == "prefill", enable_gqa=True)
        elif op == "o_proj":  # the (batch, heads, tokens, d) output read token-major (a copy where its layout needs one)
            o[op] = F.linear(o["attention"].transpose(1, 2).reshape(self.tokens, self.nq * self.d), self.w_o)
        elif op == "attn_residual":
            o[op] = self.x + o["o_proj"]
        elif op == "mlp_norm":
            o[op] = F.rms_norm(o["attn_residual"], (self.h,), self.mlp_norm_w, RMS_EPS)
        elif op == "gate_up_proj":
            o[op] = F.linear(o["mlp_norm"], self.w_gate_up)
        elif op == "silu_mul":
            gu = o["gate_up_proj"]
            o[op] = F.silu(gu[:, :self.f]) * gu[:, self.f:]
        elif op == "down_proj":
            o[op] = F.linear(o["silu_mul"], self.w_down)
        elif op == "mlp_residual":
            o[op] = o["attn_residual"] + o["down_proj"]

    def reference(self, op, rows):
        """float64 reference of op's output at token rows `rows`, from the bf16 inputs as they are."""
        torch, o = self.torch, self.out
        dbl = lambda t: t.double()  # noqa: E731
        if op in ("attn_norm", "mlp_norm"):
            x, w = (self.x, self.attn_norm_w) if op == "attn_norm" else (o["attn_residual"], self.mlp_norm_w)
            x = dbl(x[rows])
            return x / torch.sqrt((x * x).mean(-1, keepdim=True) + RMS_EPS) * dbl(w)
        gemms = {"qkv_proj": ("attn_norm", self.w_qkv), "o_proj": (None, self.w_o),
                 "gate_up_proj": ("mlp_norm", self.w_gate_up), "down_proj": ("silu_mul", self.w_down)}
        if op in gemms:
            src, w = gemms[op]
            x = o[src][rows] if src else o["attention"].transpose(1, 2).reshape(self.tokens, -1)[rows]
            return dbl(x) @ dbl(w).T
        if op in ("attn_residual", "mlp_residual"):
            a, b = (self.x, o["o_proj"]) if op == "attn_residual" else (o["attn_residual"], o["down_proj"])
            return dbl(a[rows]) + dbl(b[rows])
        if op == "silu_mul":
            gu = dbl(o["gate_up_proj"][rows])
            g, u = gu[:, :self.f], gu[:, self.f:]
            return g / (1 + torch.exp(-g)) * u
        out = []
        for r in rows:  # rope and attention: per token (sequence b, position p)
            b, t = divmod(r, self.tps)
            p = self.first + t
            if op == "rope":  # q and k heads rotated by the same fp32 angles, in double
                qk = dbl(o["qkv_proj"][r]).reshape(-1, self.d)[:self.nq + self.nkv]
                ang = dbl(self.angle[t])
                x0, x1 = qk[:, :self.d // 2], qk[:, self.d // 2:]
                out.append(torch.cat([x0 * torch.cos(ang) - x1 * torch.sin(ang),
                                      x1 * torch.cos(ang) + x0 * torch.sin(ang)], -1))
            else:
                q = dbl(o["rope"][b, :, t])
                k = dbl(self.k_cache[b, :, :p + 1]).repeat_interleave(self.nq // self.nkv, 0)
                v = dbl(self.v_cache[b, :, :p + 1]).repeat_interleave(self.nq // self.nkv, 0)
                s = torch.einsum("hd,hkd->hk", q, k) / math.sqrt(self.d)
                out.append(torch.einsum("hk,hkd->hd", torch.softmax(s, -1), v))
        return torch.stack(out)

    def got(self, op, rows):
        """op's output at token rows `rows`; rope: the rotated q heads and the k heads it cached."""
        o, torch = self.out[op], self.torch
        if op == "attention":
            return torch.stack([o[r // self.tps, :, r % self.tps] for r in rows])
        if op == "rope":
            return torch.stack([torch.cat([o[r // self.tps, :, r % self.tps],
                                           self.k_cache[r // self.tps, :, self.first + r % self.tps]]) for r in rows])
        return o[rows]

    def poison(self, op):
        """NaN into the cache slots rope writes in place, so a slot it skips fails the check (every
        other output is a fresh tensor the op writes whole)."""
        if op == "rope":
            for cache in (self.k_cache, self.v_cache):
                cache[:, :, self.first:self.first + self.tps] = float("nan")


def check(torch, layer, op, rows, k):
    got = layer.got(op, rows).double()
    ref = layer.reference(op, rows).reshape(got.shape)
    nonfinite = int((~torch.isfinite(layer.out[op])).sum().item())
    if op == "rope":  # the cache slots it wrote
        for cache in (layer.k_cache, layer.v_cache):
            nonfinite += int((~torch.isfinite(cache[:, :, layer.first:layer.first + layer.tps])).sum().item())
    err = (torch.linalg.vector_norm(torch.nan_to_num(got) - ref) / torch.linalg.vector_norm(ref)).item()
    ok = nonfinite == 0 and err <= tolerance(k, op)
    return {"rel_l2": err, "tolerance": tolerance(k, op), "nonfinite": nonfinite, "passed": ok,
            "rows": [int(r) for r in rows]}


def kernel_names(event):
    """The kernels launched under a profiler event, through its child operators."""
    names = {k.name for k in getattr(event, "kernels", [])}
    for child in getattr(event, "cpu_children", []):
        names |= kernel_names(child)
    return names


def profile_op(torch, layer, op, reps, warmup, flush):
    """Median, min, max (ms) of the device time of the kernels inside record_function(op), per call."""
    from torch.profiler import ProfilerActivity, profile, record_function
    for _ in range(warmup):
        layer.run(op)
    torch.cuda.synchronize()
    start = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stop = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        for i in range(reps):
            flush.zero_()  # outside the range: not counted
            start[i].record()
            with record_function(op):
                layer.run(op)
            stop[i].record()
        torch.cuda.synchronize()
    ranges = [e for e in prof.events() if e.name == op and str(getattr(e, "device_type", "")).endswith("CPU")]
    device_us = [getattr(e, "device_time_total", None) or getattr(e, "cuda_time_total", 0.0) for e in ranges]
    kernels = sorted(set().union(*(kernel_names(e) for e in ranges))) if ranges else []
    events_ms = [s.elapsed_time(t) for s, t in zip(start, stop)]
    summary = lambda xs: {"min": min(xs), "median": statistics.median(xs), "max": max(xs), "n": len(xs)}  # noqa: E731
    times = [u / 1000.0 for u in device_us if u and u > 0]
    return (summary(times) if len(times) == reps else None), summary(events_ms), kernels


def main():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument("--model", help="a shipped config by file stem (default llama-3.1-8b)")
    p.add_argument("--config", metavar="PATH", help="a Hugging Face config.json instead of --model")
    p.add_argument("--batch", type=int, help="sequences in the step (1..1024), with --seq or --context")
    p.add_argument("--seq", type=int, help="prefill one step of --batch sequences of this many tokens (1..32768)")
    p.add_argument("--context", type=int, help="decode one step at this context, keys per sequence (1..131072)")
    p.add_argument("--reps", type=int, default=50, help="profiled calls per sub-op (5..1000; default 50)")
    p.add_argument("--warmup", type=int, default=5, help="untimed calls first (0..100; default 5)")
    p.add_argument("--seed", type=int, help="seed of the random tensors, 0..2^64-1 (default: fresh)")
    p.add_argument("--json", metavar="PATH", help="write the record to PATH ('-': standard output)")
    p.add_argument("--list", action="store_true", help="list the sub-ops and exit (no GPU needed)")
    a = p.parse_args()
    for name, v in (("--model", a.model), ("--config", a.config), ("--json", a.json)):
        if v == "":  # given but empty: a mistake, not a request for the default
            return fail_usage(f"{name}: the value is empty")
    if a.model and a.config:
        return fail_usage("--model/--config: give one of them")
    a.config = a.config or ""
    a.model = a.model or ("" if a.config else "llama-3.1-8b")
    for name, v, lo, hi in (("--reps", a.reps, 5, 1000), ("--warmup", a.warmup, 0, 100), ("--batch", a.batch, 1, 1024),
                            ("--seq", a.seq, 1, 32768), ("--context", a.context, 1, 131072),
                            ("--seed", a.seed, 0, 2**64 - 1)):
        if v is not None and not lo <= v <= hi:
            return fail_usage(f"{name}: must be in {lo}..{hi}, got {v}")
    if a.list:
        print("\n".join(SUB_OPS))
        return 0
    try:
        layer_shape = read_layer(a)
        phases = phases_of(a)
    except ValueError as e:
        return fail_usage(str(e))
    if a.json and a.json != "-":
        folder = os.path.dirname(os.path.abspath(a.json))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            return fail_usage(f"--json: cannot write {a.json}: folder missing or not writable")
        if os.path.isdir(a.json):
            return fail_usage(f"--json: cannot write {a.json}: it is a folder")
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as e:
        print(f"{PROG}: no usable GPU stack: cannot import torch ({e})", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print(f"{PROG}: no usable GPU: torch.cuda.is_available() is False", file=sys.stderr)
        return 3
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    human = sys.stderr if a.json == "-" else sys.stdout
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    props = torch.cuda.get_device_properties(0)
    print(f"device: {props.name}; torch {torch.__version__}; {a.model or a.config}; bf16; seed {seed}", file=human)
    variants, failed = [], []
    for kind, batch, length in phases:
        pid = phase_id(kind, batch, length)
        layer = Layer(torch, F, layer_shape, kind, batch, length, seed)
        t = layer.tokens
        rows = sorted({0, t - 1} | set(torch.randperm(t, generator=torch.Generator().manual_seed(seed))[:SAMPLED_ROWS - 2].tolist()))
        cost = costs(layer_shape, kind, batch, length)
        print(f"\n{pid}: {t} tokens", file=human)
        print(f"{'sub-op':<14} {'profiler ms: median (min-max)':>32} {'events ms':>10} {'GB/s':>8} {'TFLOP/s':>8}  "
              "verified", file=human)
        for op in SUB_OPS:
            layer.poison(op)
            layer.run(op)
            torch.cuda.synchronize()
            flops, nbytes, k = cost[op]
            chk = check(torch, layer, op, rows, k)
            row = {"name": op, "phase": pid, "role": "ladder", "verified": chk["passed"], "rel_err": chk["rel_l2"],
                   "checks": [dict(chk, shape=f"{pid} ({len(rows)} sampled rows)")], "bytes": nbytes, "flops": flops,
                   "timed": False}
            if chk["passed"]:
                prof_ms, events_ms, kernels = profile_op(torch, layer, op, a.reps, a.warmup, flush)
                after = check(torch, layer, op, rows, k)
                row["checks"].append(dict(after, shape=f"{pid} after the profiled calls"))
                row["verified"] = after["passed"]
                med = (prof_ms or events_ms)["median"]
                row.update({"timed": True, "time_ms": prof_ms or events_ms,
                            "time_source": "torch.profiler kernel time" if prof_ms else "torch.cuda events (the profiler "
                                           "gave no kernel time for this range)",
                            "events_time_ms": events_ms, "kernels": kernels,
                            "GBps": nbytes / (med * 1e-3) / 1e9, "TFLOPs": flops / (med * 1e-3) / 1e12})
                print(f"{op:<14} {med:>12.4f} ({(prof_ms or events_ms)['min']:.4f}-{(prof_ms or events_ms)['max']:.4f})"
                      f"{'':>4} {events_ms['median']:>10.4f} {row['GBps']:>8.0f} {row['TFLOPs']:>8.1f}  "
                      f"{'yes' if row['verified'] else 'NO'}", file=human)
            else:
                print(f"{op:<14} not timed: rel_l2 {chk['rel_l2']:.3g}, {chk['nonfinite']} NaN  NO", file=human)
            if not row["verified"]:
                failed.append(f"{pid}/{op}")
            variants.append(row)
        del layer
        torch.cuda.empty_cache()

    if a.json:
        record = tutor_record.head("b05_transformer_torch", "B05", "measurement")
        record.update({
            "subcommand": "profile",
            "device": {"vendor": "AMD" if getattr(torch.version, "hip", None) else "NVIDIA", "name": props.name,
                       "arch": f"sm_{props.major}{props.minor}", "sm_count": props.multi_processor_count,
                       "global_mem_bytes": props.total_memory,
                       "runtime_version": f"CUDA {torch.version.cuda}" if torch.version.cuda else f"HIP {torch.version.hip}"},
            "torch": torch.__version__,
            "problem": {"model": a.model or a.config, "layer": layer_shape,
                        "phases": [phase_id(*ph) for ph in phases], "dtype": "bf16", "seed": seed,
                        "rope_base": ROPE_BASE, "rms_norm_eps": RMS_EPS, "sampled_rows_per_check": SAMPLED_ROWS},
            "variants": variants,
            "notes": {"timing": "torch.profiler: the summed device time of the kernels inside record_function(<sub-op>) "
                                "per call; reps calls after warmup; L2 flushed (256 MiB zeroed) before each, outside "
                                "the range; events_time_ms: torch.cuda events around the same calls",
                      "bytes_flops": "the C++ profile's formulas (profile_model.cpp layer_costs)",
                      "attention": "F.scaled_dot_product_attention, default backend selection, enable_gqa",
                      "gemm": "F.linear (cuBLAS), bf16, fp32 accumulation, reduced-precision reductions disallowed"},
        })
        tutor_record.write_json(record, a.json)
    if failed:
        print(f"{PROG}: check FAILED for: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
