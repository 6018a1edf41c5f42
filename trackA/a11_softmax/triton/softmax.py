"""A11 fused row softmax in Triton, autotuned, against torch.softmax and torch.compile (optional path; runs where torch and triton import).

The C++ ladder's last step, one level up: a Triton program owns one row, loads it with masked
loads (other=-inf, so the padding of the power-of-two block adds exp(-inf) = 0 to the sum),
computes the maximum, the exponentials and the sum in fp32 from registers, and stores the row
once: one read and one write per element. Rows longer than MAX_BLOCK do not fit one block: a
second kernel streams them twice, keeping a running maximum and rescaled sum per block position
(the online normaliser, Milakov and Gimelshein 2018, alg. 3) and merging them at the end.

Usage: python3 triton/softmax.py [--rows 32768] [--cols 8192] [--dtype fp32|bf16] [--lab ./build/a11_softmax] [--json PATH]
Every kernel is verified against torch.softmax computed in fp64 on the same inputs (random
logits in [-8, 8) with the lab's special rows: row % 64 == 1 fully masked (-inf: NaN out, as
torch gives), 2 partly masked, 3 equal, 4 large (10,000 + [0, 20))), output poisoned with -1
first, at awkward sizes and at the timed size, before anything is timed. torch.softmax,
torch.compile of the same call, and (with --lab) the C++ lab's last step (fast_math) are timed in the
same run; the ceiling is a tensor copy of the same bytes. Exit codes: 0 ok, 1 verification
failed, 2 bad input, 3 no GPU or no torch/triton.
"""
import argparse
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "common", "python"))
import tutor_record  # noqa: E402  (the shared record schema)

MAX_COLS = 262144   # the C++ lab's limit: a 1 MiB fp32 row
MAX_BLOCK = 16384   # longest row one program holds in registers; longer rows stream twice


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=32768, help="rows of the timed matrix (1..1048576)")
    p.add_argument("--cols", type=int, default=8192, help=f"columns: the softmax's length (1..{MAX_COLS})")
    p.add_argument("--dtype", default="fp32", help="fp32 or bf16, in and out (arithmetic in fp32)")
    p.add_argument("--lab", default="", help="the C++ lab (./build/a11_softmax): its last step, fast_math, is timed too")
    p.add_argument("--json", default="", help="write the record to PATH ('-': standard output)")
    a = p.parse_args()
    if not 1 <= a.rows <= 1048576:
        print("softmax.py: error: --rows: must be in 1..1048576", file=sys.stderr)
        return 2
    if not 1 <= a.cols <= MAX_COLS:
        print(f"softmax.py: error: --cols: must be in 1..{MAX_COLS}", file=sys.stderr)
        return 2
    if a.rows * a.cols > 2 ** 31:
        print("softmax.py: error: --rows: rows x cols at most 2^31 elements", file=sys.stderr)
        return 2
    if a.dtype not in ("fp32", "bf16"):
        print("softmax.py: error: --dtype: fp32 or bf16", file=sys.stderr)
        return 2
    if a.lab and not os.access(a.lab, os.X_OK):
        print(f"softmax.py: error: --lab: {a.lab} is not an executable", file=sys.stderr)
        return 2
    if a.json and a.json != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(a.json))):
        print(f"softmax.py: error: --json: the folder of {a.json} does not exist", file=sys.stderr)
        return 2
    try:
        import torch
        import triton
        import triton.language as tl
        from triton.testing import do_bench
    except ImportError as e:
        print(f"softmax.py: no usable GPU stack: {e}", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("softmax.py: no usable GPU: torch.cuda.is_available() is False", file=sys.stderr)
        return 3
    dtype = torch.float32 if a.dtype == "fp32" else torch.bfloat16

    @triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (2, 4, 8, 16, 32)], key=["cols", "BLOCK"])
    @triton.jit
    def softmax_row_kernel(x, y, cols, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        c = tl.arange(0, BLOCK)
        mask = c < cols
        v = tl.load(x + row * cols + c, mask=mask, other=-float("inf")).to(tl.float32)
        e = tl.exp(v - tl.max(v, axis=0))  # a fully masked row: exp(-inf - (-inf)) = NaN, as torch
        out = e / tl.sum(e, axis=0)
        tl.store(y + row * cols + c, out.to(y.dtype.element_ty), mask=mask)

    @triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (2048, 4096, 8192) for w in (8, 16)],
                     key=["cols"])
    @triton.jit
    def softmax_online_kernel(x, y, cols, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        c = tl.arange(0, BLOCK)
        m = tl.full([BLOCK], -float("inf"), tl.float32)
        d = tl.zeros([BLOCK], tl.float32)
        for start in range(0, cols, BLOCK):
            v = tl.load(x + row * cols + start + c, mask=start + c < cols, other=-float("inf")).to(tl.float32)
            m_new = tl.maximum(m, v)
            # Where a maximum is unchanged its factor is 1, not exp(m - m): two -inf maxima would give NaN.
            d = tl.where(m == m_new, d, d * tl.exp(m - m_new)) + tl.where(v == m_new, 1.0, tl.exp(v - m_new))
            m = m_new
        m_row = tl.max(m, axis=0)
        d_row = tl.sum(tl.where(m == m_row, d, d * tl.exp(m - m_row)), axis=0)
        for start in range(0, cols, BLOCK):
            mask = start + c < cols
            v = tl.load(x + row * cols + start + c, mask=mask, other=-float("inf")).to(tl.float32)
            tl.store(y + row * cols + start + c, (tl.exp(v - m_row) / d_row).to(y.dtype.element_ty), mask=mask)

    def triton_softmax(x, y):
        rows, cols = x.shape
        if cols <= MAX_BLOCK:
            softmax_row_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
        else:
            softmax_online_kernel[(rows,)](x, y, cols)

    def logits(rows, cols):
        x = torch.rand(rows, cols, device="cuda") * 16 - 8
        x[1::64] = -math.inf
        part = x[2::64]
        keep = (torch.arange(cols, device="cuda") % 3 == 0) & (torch.arange(cols, device="cuda") < (cols + 1) // 2)
        part[:, ~keep] = -math.inf
        x[2::64] = part
        x[3::64] = 7.0
        x[4::64] = 10000.0 + 20.0 * torch.rand_like(x[4::64])
        return x.to(dtype)

    # The C++ lab's tolerance (softmax_reference.hpp, softmax_tolerance): fp32 8 u (sqrt(cols) + 3),
    # u = 2^-24 (one exp, one division, a sum of cols terms); bf16 8 u, u = 2^-8 (one rounding of each output).
    def tolerance(cols):
        return 8 * 2.0 ** -24 * (math.sqrt(cols) + 3) if dtype == torch.float32 else 8 * 2.0 ** -8

    def check(y, x):
        ref = torch.softmax(x.double(), dim=-1)
        nan_rows = torch.isnan(ref).all(dim=-1)
        got = y.double()
        if bool((got == -1).any()):
            return False, "an element was never written (still -1)"
        if not bool(torch.isnan(got[nan_rows]).all()):
            return False, "a fully masked row is not NaN everywhere (torch.softmax gives NaN)"
        g, r = got[~nan_rows], ref[~nan_rows]
        if g.numel() == 0:
            return True, ""
        if not bool(torch.isfinite(g).all()):
            return False, "NaN or inf where torch.softmax is finite"
        rel = float(torch.linalg.vector_norm(g - r) / torch.linalg.vector_norm(r))
        worst_sum = float((g.sum(dim=-1) - 1).abs().max())
        tol = tolerance(x.shape[1])
        if rel > tol or worst_sum > tol:
            return False, f"relative L2 {rel:.3g}, worst row sum off by {worst_sum:.3g}; tolerance {tol:.3g}"
        return True, ""

    compiled = torch.compile(lambda t: torch.softmax(t, dim=-1))
    shapes = [(1, 1), (70, 7), (9, 33), (7, 1000), (6, 1025), (5, 16385), (5, 32769), (3, MAX_COLS)]
    timed = (a.rows, a.cols)
    x = logits(*timed)
    y = torch.empty_like(x)
    failed = False
    rows_out = []
    candidates = [("triton_fused", triton_softmax), ("torch.softmax", lambda t, o: o.copy_(torch.softmax(t, dim=-1))),
                  ("torch.compile", lambda t, o: o.copy_(compiled(t)))]
    verified = {}
    for name, fn in candidates:
        ok, why = True, ""
        for shape in shapes + [timed]:
            xs = x if shape == timed else logits(*shape)
            ys = y if shape == timed else torch.empty_like(xs)
            ys.fill_(-1.0)
            fn(xs, ys)
            torch.cuda.synchronize()
            good, reason = check(ys, xs)
            if not good and ok:
                ok, why = False, f"{shape[0]}x{shape[1]}: {reason}"
        verified[name] = (ok, why)
        failed = failed or (name == "triton_fused" and not ok)

    nbytes = 2 * x.numel() * x.element_size()  # each element read once and written once
    copy_src = torch.empty(x.numel() * x.element_size(), dtype=torch.uint8, device="cuda").random_(0, 255)
    copy_dst = torch.empty_like(copy_src)
    copy_ms = do_bench(lambda: copy_dst.copy_(copy_src), warmup=25, rep=200, return_mode="median")
    copy_gbps = nbytes / (copy_ms * 1e-3) / 1e9
    timed_calls = {"triton_fused": lambda: triton_softmax(x, y), "torch.softmax": lambda: torch.softmax(x, dim=-1),
                   "torch.compile": lambda: compiled(x)}
    for name, _ in candidates:
        ok, why = verified[name]
        row = {"name": name, "verified": ok, "role": "ladder" if name == "triton_fused" else "reference"}
        if why:
            row["reason"] = why
        if ok:
            ms = do_bench(timed_calls[name], warmup=25, rep=200, return_mode="median")
            gbps = nbytes / (ms * 1e-3) / 1e9
            row.update({"time_ms_median": ms, "GBps": gbps, "fraction_of_ceiling": gbps / copy_gbps})
        rows_out.append(row)
    if verified["triton_fused"][0]:
        y.fill_(-1.0)
        triton_softmax(x, y)
        ok, why = check(y, x)
        if not ok:
            rows_out[0].update({"verified": False, "reason": "after timing: " + why})
            failed = True

    lab_row = None
    if a.lab:
        cmd = [a.lab, "--variant", "fast_math", "--rows", str(a.rows), "--cols", str(a.cols), "--dtype", a.dtype,
               "--json", "-"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode == 0:
            rec = json.loads(run.stdout)
            v = next(r for r in rec["variants"] if r["name"] == "fast_math")
            lab_row = {"name": "C++ fast_math (a11_softmax)", "role": "reference", "verified": v["verified"],
                       "time_ms_median": v["time_ms"]["median"], "GBps": v["GBps"],
                       "fraction_of_ceiling": v["GBps"] / copy_gbps,
                       "lab_copy_GBps": rec["device"]["measured"]["copy_GBps"], "command": " ".join(cmd)}
        else:
            lab_row = {"name": "C++ fast_math (a11_softmax)", "role": "reference", "verified": False,
                       "reason": f"exit {run.returncode}: {''.join(run.stderr.strip().splitlines()[-1:])}"}
        rows_out.append(lab_row)

    out = sys.stderr if a.json == "-" else sys.stdout
    print(f"device: {torch.cuda.get_device_name()}  triton {triton.__version__}  torch {torch.__version__}", file=out)
    print(f"problem: softmax over {a.rows} x {a.cols} {a.dtype}, {nbytes / 1e9:.3f} GB read and written per call", file=out)
    print(f"ceiling: tensor copy (torch copy_) {copy_gbps:.0f} GB/s, read + write, same run", file=out)
    print(f"{'step':<30} {'median ms':>10} {'GB/s':>8} {'of ceil':>8}  verified", file=out)
    for row in rows_out:
        if "GBps" in row:
            print(f"{row['name']:<30} {row['time_ms_median']:>10.3f} {row['GBps']:>8.0f} "
                  f"{100 * row['fraction_of_ceiling']:>7.1f}%  {'yes' if row['verified'] else 'NO'}", file=out)
        else:
            print(f"{row['name']:<30} {'-':>10} {'-':>8} {'-':>8}  NO: {row.get('reason', '')}", file=out)
    if a.json:
        record = tutor_record.head("a11_softmax_triton", "A11", "measurement")
        record.update({
            "device": {"name": torch.cuda.get_device_name(), "measured": {"copy_GBps": copy_gbps}},
            "ceiling": {"name": "tensor copy (torch copy_)", "value": copy_gbps, "unit": "GB/s"},
            "problem": {"op": "softmax", "dim": "rows (last)", "rows": a.rows, "cols": a.cols, "dtype": a.dtype,
                        "accumulation": "fp32", "bytes_per_call": nbytes,
                        "verified_shapes": [f"{r}x{c}" for r, c in shapes + [timed]]},
            "timing": "triton.testing.do_bench, median, warmup 25 ms, rep 200 ms, L2 cleared between calls",
            "versions": {"torch": torch.__version__, "triton": triton.__version__},
            "variants": rows_out})
        tutor_record.write_json(record, a.json)
    if failed:
        print("softmax.py: verification FAILED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
