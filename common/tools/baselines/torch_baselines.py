"""torch_baselines: what PyTorch (and a Triton kernel) reach on this GPU, for the READMEs to quote.

The PyTorch counterpart of ./build/tutor_baselines: the operations the modules compare their
kernels with (copy, sum, cumsum, histc, transpose, softmax, rms_norm, GEMV, matmul, SDPA
prefill per backend, SDPA decode with grouped-query attention, a Triton fused softmax, and
torch.compile of RMSNorm + RoPE), each checked against a reference before its number is kept.

Usage, from the repository root:
    python3 common/tools/baselines/torch_baselines.py [--json PATH] [--reps 50] [--warmup 5]
        [--row NAME]... [--list] [--no-compile]

Timing: torch.cuda events around each call, after warm-up; median, min and max of --reps
samples (at least 20). The L2 is flushed (a 256 MiB buffer zeroed) before each sample of the
memory-bound rows, outside the timed region. GB/s counts the bytes the ideal kernel moves
(each input read once, each output written once); TFLOP/s counts the useful FLOPs (2 m n k;
4 B H S^2 D for non-causal attention, about half for causal).

Checks: the output is poisoned (NaN) before the timed loop and compared after it with a
reference: exact for copies, transposes and counts; otherwise relative L2 error against fp64
within the bound of common/include/tutor/verify.hpp (8 u sqrt(k), capped at 0.25), plus 8 u of
the output type where the result is rounded to bf16 at the end. A row whose check fails is
reported, not hidden; a backend PyTorch cannot run here is reported as not available.

Exit codes: 0 ok, 1 a check failed, 2 bad input, 3 no GPU or no torch.
"""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time

PROG = "torch_baselines.py"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

# Unit roundoff of each type (IEEE 754-2019 Table 3.5 for fp32; bf16 has an 8-bit significand,
# TF32 an 11-bit one), as in common/src/verify.cpp.
UNIT_ROUNDOFF = {"f32": 2.0 ** -24, "tf32": 2.0 ** -11, "bf16": 2.0 ** -8}
MAX_TOLERANCE = 0.25


def tolerance(k, acc="f32", out=None):
    """8 u sqrt(k) for a k-term accumulation in `acc` (Higham, Accuracy and Stability of Numerical
    Algorithms, 2nd ed., sec. 3.1; common/include/tutor/verify.hpp's default_tolerance), plus 8 u
    of `out` when the result is rounded to that narrower type at the end; capped at 0.25."""
    t = 8 * UNIT_ROUNDOFF[acc] * math.sqrt(k) if k > 1 else 0.0
    if out:
        t += 8 * UNIT_ROUNDOFF[out]
    return min(MAX_TOLERANCE, t)


def git_version():
    try:
        r = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=REPO,
                           capture_output=True, text=True, timeout=20)
        return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def fail_usage(msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    return 2


def main():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument("--json", default="", metavar="PATH", help="write the record to PATH ('-': stdout)")
    p.add_argument("--reps", type=int, default=50, help="timed samples per row (20..1000; default 50)")
    p.add_argument("--warmup", type=int, default=5, help="untimed calls first (1..100; default 5)")
    p.add_argument("--row", action="append", default=[], metavar="NAME",
                   help="measure only this row (repeatable; names from --list; a prefix selects a group)")
    p.add_argument("--list", action="store_true", help="list the rows and exit (no GPU needed)")
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile row (compiling takes tens of s)")
    a = p.parse_args()
    if not 20 <= a.reps <= 1000:
        return fail_usage("--reps: must be in 20..1000")
    if not 1 <= a.warmup <= 100:
        return fail_usage("--warmup: must be in 1..100")
    if a.json and a.json != "-":
        folder = os.path.dirname(os.path.abspath(a.json))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            return fail_usage(f"--json: cannot write {a.json}: folder missing or not writable")

    rows = declare_rows(a)
    names = [r["name"] for r in rows]
    for want in a.row:
        if not any(n.startswith(want) for n in names):
            return fail_usage(f"--row: unknown row '{want}'; allowed: {', '.join(names)}")
    if a.list:
        if a.json:
            return fail_usage("--json: --list prints the rows and measures nothing")
        for r in rows:
            print(f"{r['name']:<34} {r['what']}")
        return 0
    chosen = [r for r in rows if not a.row or any(r["name"].startswith(w) for w in a.row)]

    try:
        import torch
    except ImportError as e:
        print(f"{PROG}: no usable GPU stack: cannot import torch ({e})", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print(f"{PROG}: no usable GPU: torch.cuda.is_available() is False", file=sys.stderr)
        return 3
    try:
        import triton
        triton_version = triton.__version__
    except ImportError:
        triton, triton_version = None, None

    human = sys.stderr if a.json == "-" else sys.stdout
    bench = Bench(torch, a.reps, a.warmup)
    clocks_start = read_clocks()
    results = []
    for r in chosen:
        if human is sys.stdout and sys.stderr.isatty():
            print(f"{r['name']}...", file=sys.stderr)
        t0 = time.monotonic()
        try:
            res = r["run"](torch, triton, bench)
        except Exception as e:  # a failing op is recorded, not hidden; the run goes on
            res = {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", "verified": False}
        res.setdefault("available", "error" not in res or res.get("verified") is not False)
        res["wall_s"] = round(time.monotonic() - t0, 2)
        results.append(finish_row(r, res))
        torch.cuda.synchronize()
        torch.cuda.empty_cache()

    props = torch.cuda.get_device_properties(0)
    device = {
        "vendor": "AMD" if getattr(torch.version, "hip", None) else "NVIDIA",
        "name": props.name,
        "arch": f"sm_{props.major}{props.minor}",
        "sm_count": props.multi_processor_count,
        "l2_bytes": getattr(props, "L2_cache_size", None),
        "global_mem_bytes": props.total_memory,
        "runtime_version": f"CUDA {torch.version.cuda}" if torch.version.cuda else f"HIP {torch.version.hip}",
    }
    print_table(human, device, torch, triton_version, a, results)

    failed = [r["name"] for r in results if r.get("verified") is False]
    if a.json:
        record = {
            "schema_version": 1,
            "lab": "torch_baselines",
            "module": "common",
            "version": git_version(),
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "command": shlex.join(["python3"] + sys.argv),
            "kind": "measurement",
            "device": device,
            "clocks": {"start": clocks_start, "end": read_clocks()},
            "torch": torch.__version__,
            "triton": triton_version,
            "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
            "problem": {
                "reps": a.reps, "warmup": a.warmup,
                "timing": "torch.cuda events around each call; median, min and max of reps samples after warmup "
                          "calls; the L2 is flushed (256 MiB zeroed) before each sample of the memory-bound rows",
                "bytes": "the ideal kernel's traffic: each input read once, each output written once",
                "flops": "useful FLOPs: 2 m n k per matmul; 4 B H Sq Skv D per attention (causal: the unmasked half)",
                "checks": "output poisoned with NaN before the timed loop, compared after it with a reference: exact "
                          "for copies, transposes and counts, else relative L2 error vs fp64 within 8 u sqrt(k) "
                          "(+ 8 u of bf16 where the output is rounded to it), capped at 0.25",
            },
            "rows": results,
        }
        text = json.dumps(record, indent=2) + "\n"
        if a.json == "-":
            sys.stdout.write(text)
        else:
            folder = os.path.dirname(os.path.abspath(a.json))
            with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as f:
                f.write(text)
            os.replace(f.name, a.json)
    if failed:
        print(f"{PROG}: check FAILED for: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


# ---- timing -----------------------------------------------------------------------------------

class Bench:
    def __init__(self, torch, reps, warmup):
        self.torch, self.reps, self.warmup = torch, reps, warmup
        self.flush_buffer = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
        self.start = torch.cuda.Event(enable_timing=True)
        self.stop = torch.cuda.Event(enable_timing=True)

    def time(self, fn, flush):
        """Median, min, max (ms) of reps event-timed calls of fn after warmup calls."""
        for _ in range(self.warmup):
            fn()
        self.torch.cuda.synchronize()
        samples = []
        for _ in range(self.reps):
            if flush:
                self.flush_buffer.zero_()  # enqueued before start: not timed
            self.start.record()
            fn()
            self.stop.record()
            self.stop.synchronize()
            samples.append(self.start.elapsed_time(self.stop))
        samples.sort()
        n = len(samples)
        median = samples[n // 2] if n % 2 else 0.5 * (samples[n // 2 - 1] + samples[n // 2])
        return {"min": samples[0], "median": median, "max": samples[-1], "n": n}


def read_clocks():
    """SM and memory clocks and throttle reasons through NVML, where pynvml imports."""
    try:
        import pynvml
        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(int(os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0] or 0))
        out = {"source": "NVML (pynvml)",
               "sm_MHz": pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM),
               "sm_max_MHz": pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM),
               "mem_MHz": pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM),
               "temperature_C": pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU),
               "power_W": pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0,
               "throttle_bits": pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(h)}
        pynvml.nvmlShutdown()
        return out
    except Exception as e:  # no pynvml, no NVML, a call this driver lacks
        return {"source": f"not read: {type(e).__name__}"}


# ---- checks -----------------------------------------------------------------------------------

def rel_l2(torch, got, ref):
    got, ref = got.double(), ref.double()
    nonfinite = int((~torch.isfinite(got)).sum().item())
    ref_norm = torch.linalg.vector_norm(ref).item()
    err = torch.linalg.vector_norm(torch.nan_to_num(got, nan=0.0, posinf=0.0, neginf=0.0) - ref).item()
    return (err / ref_norm if ref_norm > 0 else err), nonfinite


def check_close(torch, case, got, ref, tol):
    err, nonfinite = rel_l2(torch, got, ref)
    return {"case": case, "rel_l2": err, "tolerance": tol, "nonfinite": nonfinite,
            "passed": nonfinite == 0 and err <= tol}


def check_exact(torch, case, ok):
    return {"case": case, "rel_l2": 0.0 if ok else None, "tolerance": 0.0, "passed": bool(ok), "exact": True}


def outcome(time_ms, checks, **extra):
    d = {"time_ms": time_ms, "checks": checks, "verified": all(c["passed"] for c in checks)}
    d.update(extra)
    return d


# ---- the rows ---------------------------------------------------------------------------------

N_1D = 1 << 28               # 1 GiB of fp32: many times any L2
T_ROWS, T_COLS = 16384, 16384
SM_ROWS, SM_COLS = 32768, 8192
RMS_T, RMS_H = 65536, 4096
GEMV_N = 8192
MATMUL_SIZES = (4096, 8192)
SDPA_B, SDPA_H, SDPA_S, SDPA_D = 8, 16, 4096, 128
DECODE_HQ, DECODE_HKV, DECODE_D = 32, 8, 128
DECODE_SHAPES = ((8, 32768), (64, 4096))   # (batch, KV length)
SDPA_BACKENDS = ("flash", "efficient", "cudnn")


def declare_rows(a):
    rows = [
        mem_row("copy_fp32", f"torch copy_ of {N_1D:,} fp32 (1 GiB)", 2 * 4 * N_1D, run_copy),
        mem_row("sum_fp32", f"torch.sum of {N_1D:,} fp32", 4 * N_1D + 4, run_sum),
        mem_row("cumsum_fp32", f"torch.cumsum of {N_1D:,} fp32", 2 * 4 * N_1D, run_cumsum),
        mem_row("histc_256_fp32", f"torch.histc, 256 bins over [0, 1), {N_1D:,} fp32", 4 * N_1D + 4 * 256, run_histc),
        mem_row("transpose_fp32_16384", "x.t().contiguous(), fp32 16384 x 16384", 2 * 4 * T_ROWS * T_COLS,
                run_transpose),
        mem_row("softmax_fp32_32768x8192", "torch.softmax over the last dim, fp32 32768 x 8192",
                2 * 4 * SM_ROWS * SM_COLS, lambda t, tr, b: run_softmax(t, b, "fp32")),
        mem_row("softmax_bf16_32768x8192", "torch.softmax over the last dim, bf16 32768 x 8192",
                2 * 2 * SM_ROWS * SM_COLS, lambda t, tr, b: run_softmax(t, b, "bf16")),
        mem_row("rms_norm_bf16_65536x4096", "F.rms_norm over 4096 with a weight, bf16 65536 x 4096",
                2 * 2 * RMS_T * RMS_H + 2 * RMS_H, run_rms_norm),
        {"name": "gemv_bf16_8192", "what": "torch.mv, bf16 8192 x 8192 matrix times a vector",
         "bytes": 2 * GEMV_N * GEMV_N + 2 * 2 * GEMV_N, "flops": 2 * GEMV_N * GEMV_N, "rate": "GBps", "run": run_gemv},
    ]
    for n in MATMUL_SIZES:
        rows.append({"name": f"matmul_fp32_{n}", "what": f"torch.matmul fp32 {n}^3, TF32 off (allow_tf32 = False)",
                     "bytes": 3 * 4 * n * n, "flops": 2 * n ** 3, "rate": "TFLOPs",
                     "run": (lambda n: lambda t, tr, b: run_matmul(t, b, n, "fp32"))(n)})
        rows.append({"name": f"matmul_bf16_{n}", "what": f"torch.matmul bf16 {n}^3 (bf16 out, fp32 accumulation)",
                     "bytes": 3 * 2 * n * n, "flops": 2 * n ** 3, "rate": "TFLOPs",
                     "run": (lambda n: lambda t, tr, b: run_matmul(t, b, n, "bf16"))(n)})
    B, H, S, D = SDPA_B, SDPA_H, SDPA_S, SDPA_D
    for causal in (False, True):
        for backend in SDPA_BACKENDS:
            kind = "causal" if causal else "noncausal"
            flops = 4 * B * H * S * S * D if not causal else 2 * B * H * S * (S + 1) * D
            rows.append({"name": f"sdpa_{backend}_{kind}",
                         "what": f"F.scaled_dot_product_attention, {backend} backend, bf16 B{B} H{H} S{S} D{D}, {kind}",
                         "bytes": 4 * B * H * S * D * 2, "flops": flops, "rate": "TFLOPs",
                         "run": (lambda be, c: lambda t, tr, b: run_sdpa(t, b, be, c))(backend, causal)})
    for batch, kv in DECODE_SHAPES:
        for backend in ("default",) + SDPA_BACKENDS:
            kv_bytes = 2 * batch * DECODE_HKV * kv * DECODE_D * 2
            rows.append({"name": f"decode_sdpa_{backend}_b{batch}_kv{kv}",
                         "what": f"F.scaled_dot_product_attention decode, {backend} dispatch, bf16, 1 query token, "
                                 f"GQA {DECODE_HQ}/{DECODE_HKV} heads, D{DECODE_D}, batch {batch} x {kv} KV",
                         "bytes": kv_bytes + 2 * 2 * batch * DECODE_HQ * DECODE_D,
                         "flops": 4 * batch * DECODE_HQ * kv * DECODE_D, "rate": "GBps",
                         "run": (lambda be, bt, L: lambda t, tr, b: run_decode(t, b, be, bt, L))(backend, batch, kv)})
    rows.append(mem_row("triton_softmax_fp32_32768x8192",
                        "Triton fused softmax, one row per program, fp32 32768 x 8192",
                        2 * 4 * SM_ROWS * SM_COLS, run_triton_softmax))
    rope_bytes = 2 * 2 * RMS_T * RMS_H + 2 * RMS_H + 2 * 4 * RMS_T * (128 // 2)
    rows.append(mem_row("rmsnorm_rope_eager_bf16_65536x4096",
                        "RMSNorm over 4096 then RoPE on 32 heads of 128, bf16 65536 x 4096, eager PyTorch",
                        rope_bytes, lambda t, tr, b: run_rmsnorm_rope(t, b, compiled=False)))
    if not a.no_compile:
        rows.append(mem_row("rmsnorm_rope_compiled_bf16_65536x4096",
                            "the same function through torch.compile (one fused kernel expected)",
                            rope_bytes, lambda t, tr, b: run_rmsnorm_rope(t, b, compiled=True)))
    return rows


def mem_row(name, what, nbytes, run):
    return {"name": name, "what": what, "bytes": nbytes, "flops": 0, "rate": "GBps", "run": run}


def finish_row(row, res):
    out = {"name": row["name"], "what": row["what"], "bytes": row["bytes"], "flops": row["flops"] or None,
           "bound": "memory" if row["rate"] == "GBps" else "compute"}
    out.update(res)
    t = res.get("time_ms")
    if t:
        secs = t["median"] * 1e-3
        out["GBps"] = row["bytes"] / secs / 1e9 if row["bytes"] else None
        out["TFLOPs"] = row["flops"] / secs / 1e12 if row["flops"] else None
    else:
        out.setdefault("time_ms", None)
        out["GBps"] = out["TFLOPs"] = None
    out.setdefault("verified", None)
    out.setdefault("checks", [])
    return out


def uniform(torch, *shape, dtype=None, lo=-1.0, hi=1.0):
    x = torch.rand(*shape, device="cuda", dtype=torch.float32) * (hi - lo) + lo
    return x if dtype is None else x.to(dtype)


def fresh(torch, x, lo=-1.0, hi=1.0):
    """New values in place, so an output that is not rewritten keeps the last call's values and
    fails the check (PyTorch's caching allocator can hand back a block that held a right answer)."""
    x.copy_(uniform(torch, *x.shape, dtype=x.dtype, lo=lo, hi=hi))


def run_copy(torch, triton, bench):
    src = uniform(torch, N_1D, lo=0.0)
    dst = torch.empty_like(src)
    t = bench.time(lambda: dst.copy_(src), flush=True)
    fresh(torch, src, 0.0)
    dst.fill_(float("nan"))
    dst.copy_(src)
    return outcome(t, [check_exact(torch, "fresh input, poisoned output: output == input", torch.equal(dst, src))])


def run_sum(torch, triton, bench):
    x = uniform(torch, N_1D, lo=0.0)
    out = torch.empty((), device="cuda")
    t = bench.time(lambda: torch.sum(x, 0, out=out), flush=True)
    fresh(torch, x, 0.0)
    out.fill_(float("nan"))
    torch.sum(x, 0, out=out)
    return outcome(t, [check_close(torch, "fresh input: sum vs fp64", out, x.double().sum(), tolerance(N_1D))])


def run_cumsum(torch, triton, bench):
    x = uniform(torch, N_1D, lo=0.0)
    out = torch.empty_like(x)
    t = bench.time(lambda: torch.cumsum(x, 0, out=out), flush=True)
    fresh(torch, x, 0.0)
    out.fill_(float("nan"))
    torch.cumsum(x, 0, out=out)
    ref = x.double().cumsum(0)
    return outcome(t, [check_close(torch, "fresh input: every prefix vs fp64", out, ref, tolerance(N_1D))])


def run_histc(torch, triton, bench):
    x = uniform(torch, N_1D, lo=0.0)
    out = torch.empty((256,), device="cuda")
    t = bench.time(lambda: torch.histc(x, bins=256, min=0.0, max=1.0, out=out), flush=True)
    fresh(torch, x, 0.0)
    out.fill_(float("nan"))
    torch.histc(x, bins=256, min=0.0, max=1.0, out=out)
    # Bins of width 1/256 over [0, 1): x * 256 is exact in fp32, so floor() is the bin.
    ref = torch.floor(x * 256).long().bincount(minlength=256)
    return outcome(t, [check_exact(torch, "fresh input: 256 counts == bincount", torch.equal(out.long(), ref))])


def run_transpose(torch, triton, bench):
    x = uniform(torch, T_ROWS, T_COLS)
    holder = {}
    t = bench.time(lambda: holder.__setitem__("y", x.t().contiguous()), flush=True)
    fresh(torch, x)
    y = x.t().contiguous()
    return outcome(t, [check_exact(torch, "fresh input: y.t() == x", torch.equal(y.t(), x))])


def run_softmax(torch, bench, dtype):
    dt = torch.float32 if dtype == "fp32" else torch.bfloat16
    x = uniform(torch, SM_ROWS, SM_COLS, dtype=dt, lo=-4.0, hi=4.0)
    holder = {}
    t = bench.time(lambda: holder.__setitem__("y", torch.softmax(x, -1)), flush=True)
    fresh(torch, x, -4.0, 4.0)
    y = torch.softmax(x, -1)
    rows = slice(0, 1024)  # a sample of 8 M elements keeps the fp64 reference cheap
    ref = torch.softmax(x[rows].double(), -1)
    tol = tolerance(SM_COLS) if dtype == "fp32" else tolerance(SM_COLS, "f32", "bf16")
    return outcome(t, [check_close(torch, "fresh input: rows 0..1023 vs fp64", y[rows], ref, tol)])


def run_rms_norm(torch, triton, bench):
    F = torch.nn.functional
    x = uniform(torch, RMS_T, RMS_H, dtype=torch.bfloat16)
    w = uniform(torch, RMS_H, dtype=torch.bfloat16, lo=0.5, hi=1.5)
    holder = {}
    t = bench.time(lambda: holder.__setitem__("y", F.rms_norm(x, (RMS_H,), w, 1e-6)), flush=True)
    fresh(torch, x)
    y = F.rms_norm(x, (RMS_H,), w, 1e-6)
    xs = x[:1024].double()
    ref = xs * torch.rsqrt(xs.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double()
    return outcome(t, [check_close(torch, "fresh input: rows 0..1023 vs fp64", y[:1024], ref,
                                   tolerance(RMS_H, "f32", "bf16"))])


def run_gemv(torch, triton, bench):
    A = uniform(torch, GEMV_N, GEMV_N, dtype=torch.bfloat16)
    x = uniform(torch, GEMV_N, dtype=torch.bfloat16)
    out = torch.empty((GEMV_N,), device="cuda", dtype=torch.bfloat16)
    t = bench.time(lambda: torch.mv(A, x, out=out), flush=True)
    fresh(torch, x)
    out.fill_(float("nan"))
    torch.mv(A, x, out=out)
    ref = A.double() @ x.double()
    return outcome(t, [check_close(torch, "fresh vector: y vs fp64", out, ref, tolerance(GEMV_N, "f32", "bf16"))])


def run_matmul(torch, bench, n, dtype):
    dt = torch.float32 if dtype == "fp32" else torch.bfloat16
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        A = uniform(torch, n, n, dtype=dt)
        B = uniform(torch, n, n, dtype=dt)
        out = torch.empty((n, n), device="cuda", dtype=dt)
        t = bench.time(lambda: torch.matmul(A, B, out=out), flush=False)
        fresh(torch, A)
        out.fill_(float("nan"))
        torch.matmul(A, B, out=out)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    rows = [0, n // 2 + 1, n - 1]
    ref = A[rows].double() @ B.double()
    # fp32: IEEE fp32 accumulation. bf16: exact inputs, tensor-core accumulation (not IEEE fp32:
    # Fasi et al., PeerJ Comput. Sci. 7:e330, 2021), then one rounding to bf16.
    tol = tolerance(n) if dtype == "fp32" else tolerance(n, "tf32", "bf16")
    return outcome(t, [check_close(torch, f"fresh A: rows {rows} vs fp64", out[rows], ref, tol)])


def sdpa_context(torch, backend):
    import contextlib
    if backend == "default":
        return contextlib.nullcontext()
    from torch.nn.attention import SDPBackend, sdpa_kernel
    which = {"flash": SDPBackend.FLASH_ATTENTION, "efficient": SDPBackend.EFFICIENT_ATTENTION,
             "cudnn": SDPBackend.CUDNN_ATTENTION}
    return sdpa_kernel([which[backend]])


def attention_ref(torch, q, k, v, causal):
    """softmax(q k^T / sqrt(D)) v in fp64 for one head (Vaswani et al. 2017, eq. 1): q [Sq, D],
    k and v [Skv, D]; causal masks key j > query i."""
    q, k, v = q.double(), k.double(), v.double()
    s = (q @ k.t()) / math.sqrt(q.shape[-1])
    if causal:
        s = s.masked_fill(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(s, -1) @ v


def time_backend(torch, bench, backend, call, q, flush):
    """Times call() under one SDPA backend, then runs it once more on a fresh q for the check.
    Returns (time, None), or (None, a row saying why) when the backend cannot run this case."""
    try:
        with sdpa_context(torch, backend):
            call()
    except RuntimeError as e:
        return None, {"available": False, "note": f"not available here: {str(e).splitlines()[0]}"}
    with sdpa_context(torch, backend):
        t = bench.time(call, flush=flush)
        fresh(torch, q)
        call()
    return t, None


def run_sdpa(torch, bench, backend, causal):
    F = torch.nn.functional
    B, H, S, D = SDPA_B, SDPA_H, SDPA_S, SDPA_D
    q, k, v = (uniform(torch, B, H, S, D, dtype=torch.bfloat16) for _ in range(3))
    holder = {}

    def call():
        holder["o"] = F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    t, unavailable = time_backend(torch, bench, backend, call, q, flush=False)
    if unavailable:
        return unavailable
    checks = [check_close(torch, f"fresh q: batch 0 head {h} vs fp64", holder["o"][0, h],
                          attention_ref(torch, q[0, h], k[0, h], v[0, h], causal), tolerance(S, "tf32", "bf16"))
              for h in (0, H - 1)]
    return outcome(t, checks)


def run_decode(torch, bench, backend, batch, kv):
    F = torch.nn.functional
    Hq, Hkv, D = DECODE_HQ, DECODE_HKV, DECODE_D
    q = uniform(torch, batch, Hq, 1, D, dtype=torch.bfloat16)
    k = uniform(torch, batch, Hkv, kv, D, dtype=torch.bfloat16)
    v = uniform(torch, batch, Hkv, kv, D, dtype=torch.bfloat16)
    holder = {}

    def call():
        holder["o"] = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)

    t, unavailable = time_backend(torch, bench, backend, call, q, flush=True)
    if unavailable:
        return unavailable
    # Query head h reads KV head h // (Hq / Hkv): enable_gqa's grouping.
    group = Hq // Hkv
    got = holder["o"][0, :, 0, :]
    ref = torch.stack([attention_ref(torch, q[0, h], k[0, h // group], v[0, h // group], False)[0] for h in range(Hq)])
    return outcome(t, [check_close(torch, "fresh q: batch 0, all heads vs fp64", got, ref,
                                   tolerance(kv, "tf32", "bf16"))])


def run_triton_softmax(torch, triton, bench):
    if triton is None:
        return {"available": False, "note": "triton does not import here"}
    import triton.language as tl

    @triton.jit
    def softmax_rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
        # One program per row: the whole row sits in registers, so it is read once and written once.
        row = tl.program_id(0).to(tl.int64)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=float("-inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)

    x = uniform(torch, SM_ROWS, SM_COLS, lo=-4.0, hi=4.0)
    y = torch.empty_like(x)
    block = triton.next_power_of_2(SM_COLS)

    def call():
        softmax_rows[(SM_ROWS,)](x, y, SM_COLS, BLOCK=block, num_warps=16)

    t = bench.time(call, flush=True)
    fresh(torch, x, -4.0, 4.0)
    y.fill_(float("nan"))
    call()
    ref = torch.softmax(x[:1024].double(), -1)
    checks = [check_close(torch, "fresh input, poisoned output: rows 0..1023 vs fp64", y[:1024], ref,
                          tolerance(SM_COLS)),
              check_exact(torch, "every element written (no NaN left)", bool(torch.isfinite(y).all().item()))]
    return outcome(t, checks, note=f"num_warps=16, BLOCK={block}")


def rmsnorm_rope(torch, x, w, cos, sin, eps=1e-6):
    """RMSNorm over the hidden size (Zhang and Sennrich, NeurIPS 2019, eq. 4), then rotary embedding
    on each head of 128 (Su et al., RoFormer, 2021, eq. 34, in the rotate-half layout), fp32 inside."""
    xf = x.float() if x.dtype != torch.float64 else x
    xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.to(xf.dtype)
    t, hidden = xf.shape
    xh = xf.view(t, hidden // 128, 128)
    x1, x2 = xh[..., :64], xh[..., 64:]
    c, s = cos[:, None, :].to(xf.dtype), sin[:, None, :].to(xf.dtype)
    out = torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), -1)
    return out.reshape(t, hidden).to(x.dtype)


def run_rmsnorm_rope(torch, bench, compiled):
    x = uniform(torch, RMS_T, RMS_H, dtype=torch.bfloat16)
    w = uniform(torch, RMS_H, dtype=torch.bfloat16, lo=0.5, hi=1.5)
    pos = torch.arange(RMS_T, device="cuda", dtype=torch.float32)[:, None]
    inv_freq = 10000.0 ** (-torch.arange(0, 64, device="cuda", dtype=torch.float32) / 64)
    cos, sin = torch.cos(pos * inv_freq), torch.sin(pos * inv_freq)

    def fn(x, w, cos, sin):
        return rmsnorm_rope(torch, x, w, cos, sin)

    extra = {}
    if compiled:
        fn = torch.compile(fn, fullgraph=True)
        t0 = time.monotonic()
        fn(x, w, cos, sin)
        torch.cuda.synchronize()
        extra["note"] = f"first call (compilation) took {time.monotonic() - t0:.1f} s"
    holder = {}
    t = bench.time(lambda: holder.__setitem__("y", fn(x, w, cos, sin)), flush=True)
    fresh(torch, x)
    y = fn(x, w, cos, sin)
    ref = rmsnorm_rope(torch, x[:512].double(), w.double(), cos[:512].double(), sin[:512].double())
    return outcome(t, [check_close(torch, "fresh input: rows 0..511 vs fp64", y[:512], ref,
                                   tolerance(RMS_H, "f32", "bf16"))], **extra)


# ---- output -------------------------------------------------------------------------------------

def print_table(out, device, torch, triton_version, a, results):
    print(f"torch_baselines on {device['name']} ({device['arch']}, {device['sm_count']} SMs), "
          f"torch {torch.__version__}, triton {triton_version}, {device['runtime_version']}", file=out)
    print(f"kind: measurement; median (min-max) of {a.reps} samples after {a.warmup} warm-ups, torch.cuda events; "
          "GB/s = ideal bytes / median", file=out)
    print(f"\n{'row':<38} {'median ms (min-max)':>28} {'rate':>16}  verified", file=out)
    for r in results:
        if r.get("error"):
            print(f"{r['name']:<38} error: {r['error']}", file=out)
        elif not r.get("available", True) or not r.get("time_ms"):
            print(f"{r['name']:<38} not available: {r.get('note', '')}", file=out)
        else:
            t = r["time_ms"]
            rate = f"{r['TFLOPs']:.1f} TFLOP/s" if r["bound"] == "compute" else f"{r['GBps']:.0f} GB/s"
            worst = max((c["rel_l2"] or 0) for c in r["checks"]) if r["checks"] else None
            ver = "FAILED" if r["verified"] is False else ("yes (exact)" if worst == 0 else f"yes ({worst:.1e})")
            print(f"{r['name']:<38} {t['median']:>10.4g} ({t['min']:.4g}-{t['max']:.4g}) {rate:>16}  {ver}", file=out)


if __name__ == "__main__":
    sys.exit(main())
