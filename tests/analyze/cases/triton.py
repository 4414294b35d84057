# Triton kernels as PyTorch extensions write them for NVIDIA: fp16 math in
# the loaded type, scoped atomics, TF32 dots, inline PTX, warps tuned for 32
# lanes; and what needs nothing (fp32 math with an up-cast, indices added
# to pointers, plain atomics, full-precision dots).
import torch
import triton
import triton.language as tl

IS_AMD = torch.version.hip is not None


@triton.jit
def add_fp16(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)  # expect: TRITON-002
    y = tl.load(y_ptr + offs, mask=mask)  # expect: TRITON-002
    tl.store(out_ptr + offs, x + y, mask=mask)  # expect: TRITON-002
    tl.store(out_ptr + offs, 0.0, mask=offs >= n)


@triton.jit
def add_upcast(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    tl.store(out_ptr + offs, (x * 2.0).to(out_ptr.dtype.element_ty), mask=offs < n)


@triton.jit
def rms_norm_modes(x_ptr, w_ptr, y_ptr, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    # the kernel decides the precision itself: it rounds back to the input's
    # type in one mode, up-casts in another; an up-cast at the load would
    # change both
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    x_dtype = x.dtype
    w = tl.load(w_ptr + offs, mask=offs < n, other=0)
    if MODE == 0:
        w = w.to(tl.float32)
    r = tl.rsqrt(tl.sum(x * x) / n)
    tl.store(y_ptr + offs, (x * r).to(x_dtype) * w, mask=offs < n)


@triton.jit
def copy_sequence(x_ptr, seqstart, out_ptr, BLOCK: tl.constexpr):
    # an index loaded from an array of sequence starts, added to offsets
    b = tl.program_id(0)
    begin = tl.load(seqstart + b)
    offs = begin + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs - begin, tl.load(x_ptr + offs))


@triton.jit
def gather_counts(idx_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(counts_ptr + idx, 1, mask=offs < n)  # expect: TRITON-001
    tl.atomic_max(counts_ptr + idx, 1, sem="acq_rel", scope="sys")
    tl.atomic_min(counts_ptr + idx, 1,  # expect: TRITON-001
                  mask=offs < n,)


@triton.jit
def relaxed_counts(idx_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(counts_ptr + idx, 1, mask=offs < n, sem='relaxed', scope="cta")


@triton.jit
def last_block_sums(x_ptr, sum_ptr, count_ptr, out_ptr, BLOCK: tl.constexpr):
    # the ticket's result is read: the order publishes the sums to the last block
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(sum_ptr, tl.sum(tl.load(x_ptr + offs).to(tl.float32)))
    ticket = tl.atomic_add(count_ptr, 1)
    if ticket == tl.num_programs(0) - 1:
        tl.store(out_ptr, tl.load(sum_ptr))


@triton.jit
def locked_update(lock_ptr, x_ptr, BLOCK: tl.constexpr):
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.atomic_add(x_ptr, 1.0)
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def amd_aware_max(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    if tl.constexpr(torch.version.hip is not None):
        tl.atomic_max(out_ptr, tl.max(x), sem="relaxed")
    else:
        tl.atomic_max(out_ptr, tl.max(x))


@triton.jit
def scatter_half_grads(grad_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    g = tl.load(grad_ptr + offs, mask=offs < n)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(out_ptr + idx, g, mask=offs < n)  # expect: TRITON-001
    g32 = tl.load(grad_ptr + offs, mask=offs < n).to(tl.float32)
    tl.atomic_add(out_ptr + idx, g32, mask=offs < n)  # expect: TRITON-001


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
    add_fp16[(1,)](x, y, out, x.numel(), BLOCK=4096, num_warps=32)  # expect: TRITON-003
    add_fp16[(1,)](x, y, out, x.numel(), BLOCK=4096, num_warps=32 if not torch.version.hip else 16)
    return out


def _get_num_warps(block_size: int) -> int:
    if block_size >= 32768:
        return 32  # expect: TRITON-003
    return min(max(block_size // 256, 1), 8)


WARP_SIZE = 32  # expect: TRITON-003
STATIC_WARPS = 32  # expect: TRITON-003
NUM_WARPS_AUTOTUNE = [1, 2, 4, 8, 16, 32]  # expect: TRITON-003
AMD_WARPS = [1, 2, 4, 8, 16, 32] if IS_AMD else [1, 2, 4]
warp_configs = [triton.Config({"BLOCK": b}, num_warps=w)
                for b in [64, 128] for w in [4, 8, 16, 32]]  # expect: TRITON-003
if torch.version.hip:
    hip_configs = [triton.Config({"BLOCK": 64}, num_warps=32, num_stages=4)]

configs = [triton.Config({"BLOCK": 128}, num_warps=8, num_stages=3)]  # expect: TRITON-003, TRITON-006
deep = [triton.Config({"BLOCK": 64}, num_stages=4)]  # expect: TRITON-006
shallow = [triton.Config({"BLOCK": 64}, num_stages=2)]


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_stages=2)], key=["n"])  # expect: TRITON-006
@triton.jit
def fused_dots(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + r[:, None] * BLOCK + r[None, :]).to(tl.float32)
    b = tl.load(b_ptr + r[:, None] * BLOCK + r[None, :]).to(tl.float32)
    c = tl.dot(tl.dot(a, b), b)
    tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], c.to(c_ptr.dtype.element_ty))


def matmuls(a, b, c):
    fused_dots[(1,)](a, b, c, 16)  # expect: TRITON-008
    dots[(1,)](a, b, c, BLOCK=16, num_warps=4, waves_per_eu=2)  # expect: TRITON-003
    dots[(1,)](a, b, c, BLOCK=16, **({"waves_per_eu": 2} if torch.version.hip else {}))
    add_fp16[(1,)](a, b, c, 16, BLOCK=16)
    num_stages = 3  # expect: TRITON-006
    dots[(1,)](a, b, c, BLOCK=16, num_stages=num_stages)  # expect: TRITON-008


@triton.jit
def tma_copy(a_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    # one warning a function: its first use
    desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1],  # expect: TRITON-007
                                     block_shape=[BLOCK, BLOCK])
    for i in tl.range(0, M, BLOCK, warp_specialize=True):
        tile = desc.load([i, 0])
        tl.store(out_ptr + i * N + tl.arange(0, BLOCK), tl.sum(tile, 0))


@triton.jit
def specialized(out_ptr, M, BLOCK: tl.constexpr, ENABLE_TMA: tl.constexpr):
    for i in tl.range(0, M, BLOCK, warp_specialize=True):  # expect: TRITON-007
        tl.store(out_ptr + i, 1.0)
    if ENABLE_TMA:
        desc = tl.make_tensor_descriptor(out_ptr, shape=[M], strides=[1], block_shape=[BLOCK])


@triton.jit
def libdevice_rsqrt(x_ptr):
    tl.store(x_ptr, tl.extra.cuda.libdevice.rsqrt(tl.load(x_ptr)))  # expect: TRITON-007


def descriptors(args):
    args.use_tma = True  # expect: TRITON-007
    tma_ok = torch.version.hip is None
    if not torch.version.hip:
        args.warp_specialization = True
    for i in tl.range(0, 8, 1, warp_specialize=False):
        pass


try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh


def launch_options(x):
    kernel_args = {"num_warps": 8}
    if x.device.type == "xpu":
        kernel_args.update({"num_warps": 32, "num_stages": 4})
    return kernel_args
