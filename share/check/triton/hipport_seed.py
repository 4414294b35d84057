"""The same random inputs on every record run: a program that draws its
inputs without a seed (torch.randn at the top of a script) gets other
ones in each run, and the original's two runs and the port's can then be
compared by nothing. Python's random, NumPy's and PyTorch's generators are
seeded with HIPPORT_RECORD_SEED (default 0; "none" leaves them) as each
module is imported; a program that seeds them itself still does, after.
As record.sh's fixed clock does for a C program's time (docs/checks.md)."""

import os
import sys


def _seed_numpy(module, seed):
    module.random.seed(seed)


def _seed_torch(module, seed):
    module.manual_seed(seed)


def install(hook_modules):
    """Seeds now what is imported, and the rest through hook_modules(patches)."""
    value = os.environ.get("HIPPORT_RECORD_SEED", "0")
    if value == "none":
        return
    seed = int(value)
    import random

    random.seed(seed)
    hook_modules({
        "numpy": lambda m: _seed_numpy(m, seed),
        "torch": lambda m: _seed_torch(m, seed),
    })
