from .jit import JITFunction, KernelInterface
from .autotuner import Autotuner, Config
