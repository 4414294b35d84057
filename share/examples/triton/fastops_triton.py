# Triton versions of two fastops kernels, as a PyTorch extension would ship
# them: an fp16 scaled add, a histogram of int32 keys and an fp32 matmul.
import torch
import triton
import triton.language as tl


@triton.jit
def scaled_add_kernel(x_ptr, y_ptr, out_ptr, scale, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    out = x + y * scale
    tl.store(out_ptr + offs, out, mask=mask)


@triton.jit
def histogram_kernel(keys_ptr, bins_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    keys = tl.load(keys_ptr + offs, mask=mask, other=0)
    tl.atomic_add(bins_ptr + keys, 1, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b, allow_tf32=True)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def scaled_add(x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
    assert x.dtype == torch.float16 and y.dtype == torch.float16
    out = torch.empty_like(x)
    n = x.numel()
    grid = (triton.cdiv(n, 1024),)
    scaled_add_kernel[grid](x, y, out, scale, n, BLOCK=1024, num_warps=4)
    return out


def histogram(keys: torch.Tensor, num_bins: int) -> torch.Tensor:
    bins = torch.zeros(num_bins, dtype=torch.int32, device=keys.device)
    n = keys.numel()
    histogram_kernel[(triton.cdiv(n, 1024),)](keys, bins, n, BLOCK=1024, num_warps=8)
    return bins
