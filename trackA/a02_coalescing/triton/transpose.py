"""A02 transpose in Triton (optional path; runs where torch and triton import).

The same lesson one level up: a Triton program loads a [BLOCK_M, BLOCK_N] tile with
coalesced, masked loads, transposes it with tl.trans (the compiler stages it through shared
memory and picks a conflict-free layout), and stores it coalesced. Compare its GB/s with
the C++ ladder's on the same GPU: ./build/a02_transpose.

Usage: python3 triton/transpose.py [--rows 16384] [--cols 16384] [--json PATH]
Every configuration is verified (exact match with torch's .t().contiguous() on fresh random
inputs, output poisoned with NaN first) at awkward sizes before it is timed. Exit codes:
0 ok, 1 verification failed, 2 bad input, 3 no GPU or no torch/triton.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "common", "python"))
import tutor_record  # noqa: E402  (the shared record schema)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=16384, help="rows of the input (1..65536)")
    p.add_argument("--cols", type=int, default=16384, help="columns of the input (1..65536)")
    p.add_argument("--json", default="", help="write the record to PATH ('-': standard output)")
    a = p.parse_args()
    for name in ("rows", "cols"):
        if not 1 <= getattr(a, name) <= 65536:
            print(f"transpose.py: error: --{name}: must be in 1..65536", file=sys.stderr)
            return 2
    try:
        import torch
        import triton
        import triton.language as tl
        from triton.testing import do_bench
    except ImportError as e:
        print(f"transpose.py: no usable GPU stack: {e}", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("transpose.py: no usable GPU: torch.cuda.is_available() is False", file=sys.stderr)
        return 3

    @triton.jit
    def transpose_kernel(x, y, rows, cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        r = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        c = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        mask = (r[:, None] < rows) & (c[None, :] < cols)
        tile = tl.load(x + r[:, None].to(tl.int64) * cols + c[None, :], mask=mask)
        # y[c, r] = x[r, c]: store the transposed tile, rows of y along c
        out_mask = (c[:, None] < cols) & (r[None, :] < rows)
        tl.store(y + c[:, None].to(tl.int64) * rows + r[None, :], tl.trans(tile), mask=out_mask)

    def launch(x, y, bm, bn):
        rows, cols = x.shape
        grid = (triton.cdiv(rows, bm), triton.cdiv(cols, bn))
        transpose_kernel[grid](x, y, rows, cols, BLOCK_M=bm, BLOCK_N=bn)

    configs = [(32, 32), (64, 64), (128, 64)]
    shapes = [(1, 1), (31, 33), (1028, 516), (4099, 3001)]
    results = []
    failed = False
    x = torch.rand(a.rows, a.cols, device="cuda") * 2 - 1
    y = torch.empty(a.cols, a.rows, device="cuda")
    nbytes = 2 * x.numel() * 4
    copy_src = torch.rand(x.numel(), device="cuda")
    copy_dst = torch.empty_like(copy_src)
    copy_ms = do_bench(lambda: copy_dst.copy_(copy_src), warmup=25, rep=200, return_mode="median")
    copy_gbps = nbytes / (copy_ms * 1e-3) / 1e9
    for bm, bn in configs:
        ok = True
        for r, c in shapes + [(a.rows, a.cols)]:
            xs = x if (r, c) == (a.rows, a.cols) else torch.rand(r, c, device="cuda") * 2 - 1
            ys = y if (r, c) == (a.rows, a.cols) else torch.empty(c, r, device="cuda")
            ys.fill_(float("nan"))
            launch(xs, ys, bm, bn)
            torch.cuda.synchronize()
            ok = ok and bool(torch.equal(ys, xs.t().contiguous()))
        row = {"name": f"triton_{bm}x{bn}", "verified": ok}
        if ok:
            ms = do_bench(lambda: launch(x, y, bm, bn), warmup=25, rep=200, return_mode="median")
            row.update({"time_ms_median": ms, "GBps": nbytes / (ms * 1e-3) / 1e9,
                        "fraction_of_ceiling": nbytes / (ms * 1e-3) / 1e9 / copy_gbps})
            ok = ok and bool(torch.equal(y, x.t().contiguous()))
            row["verified"] = ok
        failed = failed or not ok
        results.append(row)
    torch_ms = do_bench(lambda: x.t().contiguous(), warmup=25, rep=200, return_mode="median")
    out = sys.stderr if a.json == "-" else sys.stdout
    print(f"device: {torch.cuda.get_device_name()}  triton {triton.__version__}  torch {torch.__version__}", file=out)
    print(f"ceiling: tensor copy (torch copy_) {copy_gbps:.0f} GB/s, read + write, same run", file=out)
    print(f"{'step':<16} {'median ms':>10} {'GB/s':>8} {'of ceil':>8}  verified", file=out)
    for row in results:
        if "GBps" in row:
            print(f"{row['name']:<16} {row['time_ms_median']:>10.3f} {row['GBps']:>8.0f} "
                  f"{100 * row['fraction_of_ceiling']:>7.1f}%  {'yes' if row['verified'] else 'NO'}", file=out)
        else:
            print(f"{row['name']:<16} {'-':>10} {'-':>8} {'-':>8}  NO", file=out)
    torch_gbps = nbytes / (torch_ms * 1e-3) / 1e9
    print(f"{'torch .t().contiguous()':<16} {torch_ms:>10.3f} {torch_gbps:>8.0f} {100 * torch_gbps / copy_gbps:>7.1f}%  (reference)", file=out)
    if a.json:
        record = tutor_record.head("a02_transpose_triton", "A02", "measurement")
        record.update({
                  "device": {"name": torch.cuda.get_device_name(), "measured": {"copy_GBps": copy_gbps}},
                  "ceiling": {"name": "tensor copy (torch copy_)", "value": copy_gbps, "unit": "GB/s"},
                  "problem": {"op": "transpose", "dtype": "fp32", "rows": a.rows, "cols": a.cols,
                              "verified_shapes": [f"{r}x{c}" for r, c in shapes + [(a.rows, a.cols)]]},
                  "timing": "triton.testing.do_bench, median, warmup 25 ms, rep 200 ms",
                  "variants": results,
                  "reference": {"name": "torch .t().contiguous()", "time_ms_median": torch_ms, "GBps": torch_gbps}})
        tutor_record.write_json(record, a.json)
    if failed:
        print("transpose.py: verification FAILED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
