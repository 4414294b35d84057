"""A Triton program for the record hook's test (the stand-in Triton of
../stub): the port (SIDE=port, or record.sh's tree of the port) makes shift
compute otherwise, as a wrong port would, and its autotuner choose another
config. "python3 test.py tail" launches one kernel more, as a second process
of one RUN."""
import os
import sys

import torch
import triton
import triton.language as tl

PORT = os.environ.get("SIDE") == "port" or "/trees/port/" in os.getcwd() + "/"
# the autotuner's choice, which the platforms make differently
FAST = 4 if PORT else 2


@triton.jit
def scale(x_ptr, out_ptr, n, alpha, flip, BLOCK: tl.constexpr):
    out_ptr[:n].copy_(x_ptr[:n] * alpha * (-1 if flip else 1))


@triton.jit
def spread(src, dst, bias, n, ACC: tl.constexpr):
    # src and dst: two views of one buffer; bias: None
    dst[:n].copy_(src[:n] * 3)


@triton.jit
def shift(x_ptr, out_ptr, n, DTYPE: tl.constexpr):
    out_ptr[:n].copy_(x_ptr[:n] + (1.5 if PORT else 1.0))


@triton.jit
def consume(x_ptr, out_ptr, n):
    out_ptr[:n].copy_(x_ptr[:n] * x_ptr[:n])


@triton.autotune(configs=[triton.Config({"BLOCK": 2}, num_warps=2), triton.Config({"BLOCK": 4}, num_warps=8)],
                 key=["n"], reset_to_zero=["out_ptr"])
@triton.jit
def tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    import time

    time.sleep(0.001 if BLOCK == FAST else 0.02)
    out_ptr[:n].copy_(x_ptr[:n] + 1)


@triton.jit
def failing(x_ptr, n):
    raise RuntimeError("out of resources")


@triton.jit
def tick(x_ptr):
    x_ptr.add_(1)


def main():
    n = 16
    x = torch.arange(n, dtype=torch.float32)
    out = torch.zeros(n, dtype=torch.float32)
    if sys.argv[1:] == ["tail"]:
        scale[(1,)](x, out, n, 2.0, False, BLOCK=16)
        return
    print("user sitecustomize:", os.environ.get("USER_SITECUSTOMIZE", "no"))
    print("hooked:", "hipport_triton" in sys.modules)
    print("python:", sys.executable)
    grid = lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)
    scale.warmup(x, out, n, 0.5, True, BLOCK=4, grid=grid)
    scale[grid](x, out, n, 0.5, True, BLOCK=4, num_warps=8)
    triton.testing.do_bench(lambda: scale[grid](x, out, n, 0.5, True, BLOCK=4))
    buf = torch.arange(2 * n, dtype=torch.float32)
    spread[(2, 3)](buf[:n], buf[n:], None, n, ACC=True)
    y = torch.zeros(n, dtype=torch.float32)
    shift[(1,)](x, y, n, DTYPE=tl.float32)
    z = torch.zeros(n, dtype=torch.float32)
    consume[(1,)](y, z, n)
    t = torch.zeros(n, dtype=torch.float32)
    tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, t, n)
    tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, t, n)
    try:
        failing[(1,)](x, n)
    except RuntimeError as e:
        print("failing raised:", e)
    c = torch.zeros(4, dtype=torch.int32)
    for _ in range(5):
        tick[(1,)](c)
    print("result:", float(z.sum()), float(t.sum()), int(c.sum()))


main()
