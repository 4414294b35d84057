# TRITON-001: a histogram-like accumulation through tl.atomic_add at
# Triton's default order (acq_rel); the fix gives it sem="relaxed".
import triton
import triton.language as tl


@triton.jit
def accumulate(x_ptr, out_ptr, n, nbins, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_add(out_ptr + offs % nbins, x, mask=mask)
