# Triton kernels as PyTorch extensions write them for NVIDIA: fp16 math in
# the loaded type, scoped atomics, TF32 dots, inline PTX, warps tuned for 32
# lanes; and what needs nothing (fp32 math with an up-cast, indices added
# to pointers, plain atomics, full-precision dots).
import torch
import triton
import triton.language as tl


@triton.jit
def add_fp16(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)  # expect: TRITON-002
    y = tl.load(y_ptr + offs, mask=mask)  # expect: TRITON-002
    tl.store(out_ptr + offs, x + y, mask=mask)  # expect: TRITON-002


@triton.jit
def add_upcast(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    tl.store(out_ptr + offs, (x * 2.0).to(out_ptr.dtype.element_ty), mask=offs < n)


@triton.jit
def gather_counts(idx_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(counts_ptr + idx, 1, mask=offs < n)
    tl.atomic_max(counts_ptr + idx, 1, sem="acq_rel", scope="sys")  # expect: TRITON-001


@triton.jit
def relaxed_counts(idx_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(counts_ptr + idx, 1, mask=offs < n, sem='relaxed', scope="cta")  # expect: TRITON-001


@triton.jit
def scatter_half_grads(grad_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    g = tl.load(grad_ptr + offs, mask=offs < n)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(out_ptr + idx, g, mask=offs < n)  # expect: TRITON-001
    g32 = tl.load(grad_ptr + offs, mask=offs < n).to(tl.float32)
    tl.atomic_add(out_ptr + idx, g32, mask=offs < n)


@triton.jit
def dots(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + r[:, None] * BLOCK + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BLOCK + r[None, :])
    c = tl.dot(a, b, allow_tf32=True)  # expect: TRITON-004
    c += tl.dot(a, b, input_precision="tf32x3")  # expect: TRITON-004
    c += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], c)


@triton.jit
def fast_exp(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    y = tl.inline_asm_elementwise("ex2.approx.f32 $0, $1;", "=r,r", [x],  # expect: TRITON-005
                                  dtype=tl.float32, is_pure=True, pack=1)
    tl.store(x_ptr + offs, y, mask=offs < n)


@triton.jit
def documented(x_ptr, BLOCK: tl.constexpr):
    """Doubles x in place: x = tl.load(x_ptr) + 1 in a docstring is no code,
    nor is tl.atomic_add(x_ptr, 1, sem="relaxed") or tl.dot(a, b, allow_tf32=True)."""
    # y = tl.load(x_ptr) * 2 in a comment is none either
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


def not_a_kernel(x_ptr):
    x = tl.load(x_ptr)
    return x + 1


def launch(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    add_fp16[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024,
                                              num_warps=4)  # expect: TRITON-003
    return out


configs = [triton.Config({"BLOCK": 128}, num_warps=8, num_stages=3)]  # expect: TRITON-003
deep = [triton.Config({"BLOCK": 64}, num_stages=4)]  # expect: TRITON-003
shallow = [triton.Config({"BLOCK": 64}, num_stages=2)]
