"""A program of real Triton kernels for the record hook's test on a GPU
(test_real.py): SIDE=port makes scale add another bias, as a wrong port
would."""
import os

import torch
import triton
import triton.language as tl

PORT = os.environ.get("SIDE") == "port"
BIAS = tl.constexpr(2.0 if PORT else 1.0)


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def scale(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * alpha + BIAS, mask=m)


@triton.jit
def biased(x_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    if bias_ptr is not None:
        v += tl.load(bias_ptr + offs, mask=m)
    tl.store(out_ptr + offs, v, mask=m)


@triton.jit
def cast(x_ptr, out_ptr, n, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m).to(DTYPE), mask=m)


CONFIGS = [triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 1024}, num_warps=8)]


@triton.autotune(configs=CONFIGS, key=["n"], reset_to_zero=["out_ptr"])
@triton.jit
def tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)


def main():
    n = 10000
    torch.manual_seed(0)
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty(n, device="cuda")
    grid = lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)
    add.warmup(x, y, out, n, BLOCK=256, grid=(1,))
    add[grid](x, y, out, n, BLOCK=256)
    triton.testing.do_bench(lambda: add[grid](x, y, out, n, BLOCK=256))
    # one buffer, read in its first half, written in its second
    buf = torch.randn(2 * n, device="cuda")
    add[grid](buf[:n], y, buf[n:], n, BLOCK=256)
    s = torch.empty(n, device="cuda")
    scale[grid](x, s, n, 0.5, BLOCK=512)
    b = torch.empty(n, device="cuda")
    biased[grid](x, None, b, n, BLOCK=256)
    h = torch.empty(n, device="cuda", dtype=torch.float16)
    cast[grid](x, h, n, DTYPE=tl.float16, BLOCK=256)
    t = torch.empty(n, device="cuda")
    tuned[grid](x, t, n)
    tuned[grid](y, t, n)
    torch.cuda.synchronize()
    print("checks:", torch.allclose(out, x + y), torch.allclose(buf[n:], buf[:n] + y), torch.allclose(t, y * 2))


main()
