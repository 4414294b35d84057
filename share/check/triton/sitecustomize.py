"""hipport's record runs put this directory first in PYTHONPATH (record.sh):
with HIPPORT_RECORD_DIR set, Triton's launches are recorded there
(hipport_triton.py), with HIPPORT_TUNE_DIR set (and no HIPPORT_RECORD_DIR)
each kernel's first launch is tuned there (hipport_tune.py; docs/checks.md);
either way random generators are seeded alike in every run (hipport_seed.py).
The sitecustomize this one shadows, if any, still runs after it."""

import os
import sys


def _load(name):
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _hook():
    triton = _load("hipport_triton")
    _load("hipport_seed").install(triton.hook_modules)
    if os.environ.get("HIPPORT_RECORD_DIR"):
        triton.install()
    else:
        _load("hipport_tune").install()


def _chain():
    """Runs the next sitecustomize on sys.path, as site would have without this one."""
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [os.path.abspath(p or os.curdir) for p in sys.path]
    later = [p for p in sys.path[dirs.index(here) + 1:] if os.path.abspath(p or os.curdir) != here] if here in dirs else []
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", later)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


if os.environ.get("HIPPORT_RECORD_DIR") or os.environ.get("HIPPORT_TUNE_DIR"):
    try:
        _hook()
    except Exception as e:
        sys.stderr.write("hipport: Triton launches not hooked: %s: %s\n" % (type(e).__name__, e))
_chain()
