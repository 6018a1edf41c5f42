"""A12 fused RoPE + RMSNorm in Triton, timed with torch eager and torch.compile of the same math.

The QK-norm step of Qwen3-style models: every q and k head of every token is RMS-normalised
over head_dim (q_norm weight for q heads, k_norm for k heads; fp32 sum of squares), then rotated
by the rotary embedding of its token's position (cos/sin computed in the kernel from the fp32
angle position x inv_freq). One Triton program takes ROWS head rows: it reads each row once,
and reads each element's rotation partner a second time from the same row (a cache hit, not
HBM traffic), so HBM sees x once and y once, like the C++ lab's fused_compute step
(./build/a12_rope_rmsnorm).

Usage: python3 triton/rope_rmsnorm.py [--tokens 16384] [--q-heads 32] [--kv-heads 8]
       [--head-dim 128] [--rotary-dim 0] [--layout rotate_half|interleaved] [--json PATH]
Every implementation (the Triton kernel, torch eager, torch.compile) is verified against an
fp64 reference on the GPU from the same bf16 inputs (relative L2; fresh random inputs; the
Triton output poisoned with NaN first) before it is timed: the Triton kernel and torch eager at
awkward shapes and at the timed shape, torch.compile (which compiles again for every new shape)
at one awkward shape (partial rotary, head_dim 96) and at the timed shape. Exit codes: 0 ok, 1 verification failed, 2 bad input, 3 no GPU or no torch/triton.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "common", "python"))
import tutor_record  # noqa: E402  (the shared record schema)

ROPE_BASE = 1000000.0   # Qwen3-8B config.json: rope_theta
EPS = 1e-6              # Qwen3-8B config.json: rms_norm_eps
MAX_POSITION = 32768    # positions are drawn from a 32k context
U_BF16 = 2.0 ** -8      # unit roundoff of bf16 (8 significand bits)
U_FP32 = 2.0 ** -24


def tolerance(head_dim: int) -> float:
    """The C++ lab's bound (rope_rmsnorm_reference.hpp): two bf16 roundings plus the fp32 sum."""
    return 2 * U_BF16 + (head_dim + 8) * U_FP32


def torch_tolerance(head_dim: int) -> float:
    """torch eager rounds to bf16 after the norm, after the weight, in cos and sin, and after each
    product and the sum of the rotation: allow 8 bf16 roundings for those rows."""
    return 8 * U_BF16 + (head_dim + 8) * U_FP32


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tokens", type=int, default=16384, help="tokens of the batch (1..1048576)")
    p.add_argument("--q-heads", type=int, default=32, help="query heads per token (1..256)")
    p.add_argument("--kv-heads", type=int, default=8, help="key heads per token (0..256)")
    p.add_argument("--head-dim", type=int, default=128, help="elements per head (2..256)")
    p.add_argument("--rotary-dim", type=int, default=0, help="rotated leading elements (even, <= --head-dim; 0: all)")
    p.add_argument("--layout", default="rotate_half", help="rotate_half (Llama, NeoX, Qwen3) or interleaved (GPT-J)")
    p.add_argument("--json", default="", help="write the record to PATH ('-': standard output)")
    a = p.parse_args()
    ranges = {"tokens": (1, 1 << 20), "q_heads": (1, 256), "kv_heads": (0, 256), "head_dim": (2, 256),
              "rotary_dim": (0, 256)}
    for name, (lo, hi) in ranges.items():
        if not lo <= getattr(a, name) <= hi:
            print(f"rope_rmsnorm.py: error: --{name.replace('_', '-')}: must be in {lo}..{hi}", file=sys.stderr)
            return 2
    rotary = a.rotary_dim or a.head_dim
    if rotary > a.head_dim or rotary % 2:
        print(f"rope_rmsnorm.py: error: --rotary-dim: {rotary} must be even and at most --head-dim {a.head_dim}",
              file=sys.stderr)
        return 2
    if a.layout not in ("rotate_half", "interleaved"):
        print("rope_rmsnorm.py: error: --layout: must be rotate_half or interleaved", file=sys.stderr)
        return 2
    try:
        import torch
        import triton
        import triton.language as tl
        from triton.testing import do_bench
    except ImportError as e:
        print(f"rope_rmsnorm.py: no usable GPU stack: {e}", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("rope_rmsnorm.py: no usable GPU: torch.cuda.is_available() is False", file=sys.stderr)
        return 3

    @triton.autotune(configs=[triton.Config({"ROWS": r}, num_warps=w) for r in (4, 8, 16) for w in (2, 4)],
                     key=["heads", "head_dim", "rotary_dim", "INTERLEAVED"])
    @triton.jit
    def rope_rmsnorm_kernel(x, y, q_weight, k_weight, positions, inv_freq, rows, heads, q_heads, head_dim, rotary_dim,
                            eps, BLOCK_D: tl.constexpr, INTERLEAVED: tl.constexpr, ROWS: tl.constexpr):
        r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)            # head rows of this program
        d = tl.arange(0, BLOCK_D)                                    # elements of a row
        row_ok = r < rows
        mask = row_ok[:, None] & (d[None, :] < head_dim)
        base = r.to(tl.int64)[:, None] * head_dim
        v = tl.load(x + base + d[None, :], mask=mask, other=0.0).to(tl.float32)
        inv_rms = 1.0 / tl.sqrt(tl.sum(v * v, axis=1) / head_dim + eps)   # fp32 sum of squares
        is_q = ((r % heads) < q_heads)[:, None]
        w = tl.where(is_q, tl.load(q_weight + d, mask=d < head_dim, other=0.0).to(tl.float32)[None, :],
                     tl.load(k_weight + d, mask=d < head_dim, other=0.0).to(tl.float32)[None, :])
        n = v * inv_rms[:, None] * w
        half = rotary_dim // 2
        if INTERLEAVED:
            lower = (d % 2) == 0
            pair = d // 2
            other = d ^ 1
        else:
            lower = d < half
            pair = tl.where(lower, d, d - half)
            other = tl.where(lower, d + half, d - half)
        rot = d < rotary_dim
        other = tl.where(rot, other, d)
        vp = tl.load(x + base + other[None, :], mask=mask, other=0.0).to(tl.float32)   # the partner: a cache hit
        wp = tl.where(is_q, tl.load(q_weight + other, mask=d < head_dim, other=0.0).to(tl.float32)[None, :],
                      tl.load(k_weight + other, mask=d < head_dim, other=0.0).to(tl.float32)[None, :])
        np_ = vp * inv_rms[:, None] * wp
        pos = tl.load(positions + r // heads, mask=row_ok, other=0).to(tl.float32)
        f = tl.load(inv_freq + pair, mask=rot, other=0.0)
        angle = pos[:, None] * f[None, :]                             # one fp32 product
        # tl.cos / tl.sin may lower to the GPU's approximate instructions, accurate only on
        # [-pi, pi] (PTX ISA, sin.approx.f32), and angles reach 32767 rad: reduce first
        # (Cody-Waite, 2 pi in two parts: k x 6.28125 is exact for k < 2^16).
        k = tl.floor(angle * 0.15915494309189535 + 0.5)
        reduced = (angle - k * 6.28125) - k * 0.0019353071795864769
        c = tl.cos(reduced)
        s = tl.sin(reduced)
        sign = tl.where(lower, -1.0, 1.0)
        out = tl.where(rot[None, :], n * c + sign[None, :] * np_ * s, n)
        tl.store(y + base + d[None, :], out.to(tl.bfloat16), mask=mask)

    dev = "cuda"
    gen = torch.Generator(device=dev)
    gen.seed()

    def make(tokens, q_heads, kv_heads, head_dim, rotary_dim):
        heads = q_heads + kv_heads
        x = (torch.rand(tokens, heads, head_dim, device=dev, generator=gen) * 2 - 1).to(torch.bfloat16)
        qw = (torch.rand(head_dim, device=dev, generator=gen) + 0.5).to(torch.bfloat16)
        kw = (torch.rand(head_dim, device=dev, generator=gen) + 0.5).to(torch.bfloat16)
        pos = torch.randint(0, MAX_POSITION, (tokens,), device=dev, dtype=torch.int32, generator=gen)
        i = torch.arange(0, rotary_dim // 2, device=dev, dtype=torch.float64)
        inv_freq = (ROPE_BASE ** (-2 * i / rotary_dim)).to(torch.float32)
        return x, qw, kw, pos, inv_freq

    def weights(qw, kw, q_heads, kv_heads):
        return torch.cat([qw.expand(q_heads, -1), kw.expand(kv_heads, -1)])   # [heads, head_dim]

    def rotate(t, rotary_dim, interleaved, c, s):
        """t[..., :rotary_dim] rotated by (c, s) of shape [tokens, 1, rotary_dim / 2]; the rest passed through."""
        rot, rest = t[..., :rotary_dim], t[..., rotary_dim:]
        if interleaved:
            a, b = rot[..., 0::2], rot[..., 1::2]
            out = torch.stack((a * c - b * s, b * c + a * s), dim=-1).flatten(-2)
        else:
            h = rotary_dim // 2
            a, b = rot[..., :h], rot[..., h:]
            out = torch.cat((a * c - b * s, b * c + a * s), dim=-1)
        return torch.cat((out, rest), dim=-1)

    def reference(x, qw, kw, pos, inv_freq, q_heads, kv_heads, rotary_dim, interleaved):
        """fp64 from the same bf16 inputs, the angle the fp32 product like the kernels."""
        xd = x.double()
        n = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + EPS) * weights(qw, kw, q_heads, kv_heads).double()
        angle = (pos.float()[:, None] * inv_freq[None, :]).double()[:, None, :]
        return rotate(n, rotary_dim, interleaved, angle.cos(), angle.sin())

    def torch_eager(x, qw, kw, pos, inv_freq, q_heads, kv_heads, rotary_dim, interleaved):
        """As Hugging Face's Qwen3 code does it: fp32 statistics, bf16 result times the bf16
        weight, cos and sin of the fp32 angle cast to bf16, the rotation in bf16."""
        xf = x.float()
        n = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS)).to(torch.bfloat16)
        n = n * weights(qw, kw, q_heads, kv_heads)
        angle = (pos.float()[:, None] * inv_freq[None, :])[:, None, :]
        return rotate(n, rotary_dim, interleaved, angle.cos().to(torch.bfloat16), angle.sin().to(torch.bfloat16))

    def triton_fused(x, y, qw, kw, pos, inv_freq, q_heads, kv_heads, rotary_dim, interleaved):
        tokens, heads, head_dim = x.shape
        rows = tokens * heads
        grid = lambda meta: (triton.cdiv(rows, meta["ROWS"]),)  # noqa: E731
        rope_rmsnorm_kernel[grid](x, y, qw, kw, pos, inv_freq, rows, heads, q_heads, head_dim, rotary_dim, EPS,
                                  BLOCK_D=triton.next_power_of_2(head_dim), INTERLEAVED=interleaved)

    def rel_l2(got, ref):
        return float((got.double() - ref).norm() / ref.norm()) if ref.norm() > 0 else float(got.double().norm())

    interleaved_timed = a.layout == "interleaved"
    timed = (a.tokens, a.q_heads, a.kv_heads, a.head_dim, rotary, interleaved_timed)
    shapes = [(1, 3, 1, 64, 64, False), (17, 3, 1, 96, 96, True), (17, 5, 2, 128, 64, False),
              (17, 3, 1, 96, 48, False), (5, 2, 1, 100, 100, False), (4097, 2, 1, 128, 128, False), timed]
    try:
        compiled = torch.compile(torch_eager)
        compile_error = ""
    except Exception as e:  # noqa: BLE001  (an unusable compiler is reported, not fatal)
        compiled, compile_error = None, f"{type(e).__name__}: {e}"

    impls = [("triton_fused", tolerance), ("torch_eager", torch_tolerance), ("torch_compile", torch_tolerance)]
    checks = {name: [] for name, _ in impls}
    inputs = {}
    for shape in shapes:
        tokens, qh, kh, hd, rd, inter = shape
        x, qw, kw, pos, inv_freq = make(tokens, qh, kh, hd, rd)
        ref = reference(x, qw, kw, pos, inv_freq, qh, kh, rd, inter)
        y = torch.full_like(x, float("nan"))
        triton_fused(x, y, qw, kw, pos, inv_freq, qh, kh, rd, inter)
        torch.cuda.synchronize()
        label = f"{tokens}x({qh}+{kh})x{hd} rotary {rd} {'interleaved' if inter else 'rotate_half'}"
        outs = {"triton_fused": y, "torch_eager": torch_eager(x, qw, kw, pos, inv_freq, qh, kh, rd, inter)}
        if compiled is not None and (shape == timed or shape == shapes[3]):  # each new shape recompiles: two
            try:
                outs["torch_compile"] = compiled(x, qw, kw, pos, inv_freq, qh, kh, rd, inter)
            except Exception as e:  # noqa: BLE001
                compiled, compile_error = None, f"{type(e).__name__}: {e}"
        for name, tol in impls:
            if name in outs:
                err = rel_l2(outs[name], ref)
                finite = bool(torch.isfinite(outs[name]).all())
                checks[name].append({"shape": label, "rel_l2": err, "tolerance": tol(hd),
                                     "passed": finite and err <= tol(hd)})
        if shape == timed:
            inputs = dict(x=x, qw=qw, kw=kw, pos=pos, inv_freq=inv_freq, ref=ref)

    x, qw, kw, pos, inv_freq = (inputs[k] for k in ("x", "qw", "kw", "pos", "inv_freq"))
    tokens, qh, kh, hd, rd, inter = timed
    nbytes = 2 * x.numel() * 2 + tokens * 4 + 2 * hd * 2       # x read, y written, positions, two weights
    copy_src = torch.empty(x.numel(), dtype=torch.bfloat16, device=dev).uniform_(-1, 1)
    copy_dst = torch.empty_like(copy_src)
    copy_ms = do_bench(lambda: copy_dst.copy_(copy_src), warmup=25, rep=200, return_mode="median")
    copy_gbps = 2 * copy_src.numel() * 2 / (copy_ms * 1e-3) / 1e9
    y = torch.empty_like(x)
    runs = {"triton_fused": lambda: triton_fused(x, y, qw, kw, pos, inv_freq, qh, kh, rd, inter),
            "torch_eager": lambda: torch_eager(x, qw, kw, pos, inv_freq, qh, kh, rd, inter)}
    if compiled is not None:
        runs["torch_compile"] = lambda: compiled(x, qw, kw, pos, inv_freq, qh, kh, rd, inter)
    results, failed = [], False
    for name, tol in impls:
        row = {"name": name, "checks": checks[name], "verified": bool(checks[name]) and all(c["passed"] for c in checks[name])}
        if name == "torch_compile" and compiled is None:
            row.update({"verified": False, "skipped": f"torch.compile unavailable: {compile_error}"})
            results.append(row)
            continue
        if row["verified"]:
            ms = do_bench(runs[name], warmup=25, rep=200, return_mode="median")
            gbps = nbytes / (ms * 1e-3) / 1e9
            row.update({"time_ms_median": ms, "GBps": gbps, "fraction_of_ceiling": gbps / copy_gbps})
            if name == "triton_fused":   # the output the timed loop left behind
                after = rel_l2(y, inputs["ref"])
                row["checks"].append({"shape": "timed shape after timed loop", "rel_l2": after,
                                      "tolerance": tol(hd), "passed": after <= tol(hd)})
                row["verified"] = after <= tol(hd)
                row["config"] = str(rope_rmsnorm_kernel.best_config)
        failed = failed or not row["verified"]
        results.append(row)

    out = sys.stderr if a.json == "-" else sys.stdout
    print(f"device: {torch.cuda.get_device_name()}  triton {triton.__version__}  torch {torch.__version__}", file=out)
    print(f"problem: RMSNorm + RoPE ({a.layout}) of {tokens} tokens x ({qh} q + {kh} k) heads x {hd} bf16, rotary {rd}, "
          f"{nbytes / 1e9:.3f} GB minimum per launch", file=out)
    print(f"ceiling: tensor copy (torch copy_) {copy_gbps:.0f} GB/s, read + write, same run", file=out)
    print(f"{'implementation':<16} {'median ms':>10} {'GB/s':>8} {'of copy':>8} {'max rel L2':>11}  verified", file=out)
    for row in results:
        worst = max((c["rel_l2"] for c in row["checks"]), default=float("nan"))
        if "GBps" in row:
            print(f"{row['name']:<16} {row['time_ms_median']:>10.4f} {row['GBps']:>8.0f} "
                  f"{100 * row['fraction_of_ceiling']:>7.1f}% {worst:>11.2e}  {'yes' if row['verified'] else 'NO'}",
                  file=out)
        else:
            why = row.get("skipped", "failed verification: not timed")
            print(f"{row['name']:<16} {'-':>10} {'-':>8} {'-':>8} {worst:>11.2e}  {why}", file=out)
    if a.json:
        record = tutor_record.head("a12_rope_rmsnorm_triton", "A12", "measurement")
        record.update({
            "device": {"name": torch.cuda.get_device_name(), "measured": {"copy_GBps": copy_gbps}},
            "ceiling": {"name": "tensor copy (torch copy_)", "value": copy_gbps, "unit": "GB/s"},
            "problem": {"op": "per-head RMSNorm then RoPE on q and k", "dtype": "bf16", "tokens": tokens,
                        "q_heads": qh, "kv_heads": kh, "head_dim": hd, "rotary_dim": rd, "layout": a.layout,
                        "rope_base": ROPE_BASE, "rms_norm_eps": EPS, "bytes_per_launch": nbytes,
                        "reference": "fp64 on the GPU from the same bf16 inputs, angle as the fp32 product",
                        "verified_shapes": [c["shape"] for c in checks["triton_fused"]]},
            "timing": "triton.testing.do_bench, median, warmup 25 ms, rep 200 ms",
            "versions": {"torch": torch.__version__, "triton": triton.__version__},
            "variants": results})
        tutor_record.write_json(record, a.json)
    if failed:
        print("rope_rmsnorm.py: verification FAILED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
