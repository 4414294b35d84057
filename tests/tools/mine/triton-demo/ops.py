# A dual-platform Triton file written for tests/tools/test-mine-triton.sh:
# each platform test below is a kind of site, or not a site at all.
import torch
import triton
import triton.language as tl

IS_AMD = torch.version.hip is not None
STATIC_WARPS = 32 if not IS_AMD else 16
WARP_LIST = [1, 2, 4, 8, 16] if IS_AMD else [1, 2, 4, 8, 16, 32]


def is_hip():
    return torch.version.hip is not None


if is_hip():
    configs = [triton.Config({"BLOCK": 64}, num_warps=4, num_stages=2, waves_per_eu=2)]
else:
    configs = [triton.Config({"BLOCK": 64}, num_warps=4, num_stages=4)]


@triton.autotune(configs=configs, key=["n"])
@triton.jit
def accumulate(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    if tl.constexpr(torch.version.hip is not None):
        tl.atomic_add(out_ptr, tl.sum(x), sem="relaxed")
    else:
        tl.atomic_add(out_ptr, tl.sum(x))


def launch(x, out, backend):
    extra = {}
    if is_hip():
        extra = {"matrix_instr_nonkdim": 16}
    if backend == "hip":
        pass
    if torch.cuda.is_available() and x.is_cuda:
        out.zero_()
    if is_hip() and x.numel() > 4096:
        raise NotImplementedError("not on ROCm")
    accumulate[(triton.cdiv(x.numel(), 64),)](x, out, x.numel(), **extra)
