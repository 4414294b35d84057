"""A stand-in for Triton's Python API, enough for hipport's record hook
(share/check/triton/): kernel[grid](...) reaches JITFunction.run with
Triton 3's signature, and a kernel's body is plain Python over CPU tensors."""
from .runtime.jit import JITFunction, KernelInterface, jit
from .runtime.autotuner import Autotuner, Config, autotune, heuristics
from . import language
from . import testing


def cdiv(x, y):
    return (x + y - 1) // y
