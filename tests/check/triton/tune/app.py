"""A program for the tuning hook's test: kernels whose speed and results
depend on their launch options through the stand-in Triton's `current`."""
import sys
import time

import torch
import triton
import triton.language as tl
from triton.runtime import jit


@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # slower with fewer warps and more stages; wrong with 16 (as a racy
    # config would be);
    # too deep a pipeline does not compile
    o = jit.current
    if o.get("num_stages", 3) > 4:
        raise RuntimeError("out of resource: shared memory, Required: 131072, Hardware limit: 101376")
    # (steps of 0.5 ms or more between the best and the next: a loaded
    # machine's sleep jitter does not reorder them)
    time.sleep(0.001 * 8 / o.get("num_warps", 4) + 0.0005 * o.get("num_stages", 3))
    y_ptr.copy_(x_ptr * 2 + (1 if o.get("num_warps") == 16 else 0))


@triton.jit
def accumulate(acc_ptr, x_ptr, n, BLOCK: tl.constexpr):
    # adds into its output: a replay must start from the saved tensors; as
    # fast whatever the options
    time.sleep(0.002)
    acc_ptr.add_(x_ptr)


@triton.jit
def untouched(n, BLOCK: tl.constexpr):
    pass


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=1, num_stages=2)], key=["n"])
@triton.jit
def shift(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # an autotuner's: its launch takes no options, its config does
    time.sleep(0.001 * 8 / jit.current.get("num_warps", 4) + 0.0005 * jit.current.get("num_stages", 3))
    y_ptr.copy_(x_ptr + 1)


x = torch.arange(64, dtype=torch.float32)
y = torch.zeros(64)
acc = torch.ones(64)
scale[(1,)](x, y, 64, BLOCK=64, num_warps=1,  # as on XPU
            num_stages=4)
accumulate[(1,)](acc, x, 64, BLOCK=64)
accumulate[(1,)](acc, x, 64, BLOCK=64)
untouched[(1,)](64, BLOCK=64)
scale[(1,)](x, y, 64, BLOCK=64,)  # Triton's defaults, a trailing comma
z = torch.zeros(64)
shift[(1,)](x, z, 64)
print("y ok:", bool(torch.equal(y, x * 2)))
print("acc ok:", bool(torch.equal(acc, 1 + 2 * x)))
print("z ok:", bool(torch.equal(z, x + 1)))
sys.exit(0)
