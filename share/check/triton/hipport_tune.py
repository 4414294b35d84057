"""Tuning of Triton kernels for hipport's `check tune` (docs/checks.md,
"Tuning Triton kernels").

sitecustomize.py installs this when HIPPORT_TUNE_DIR is set: once
triton.runtime.jit is imported, JITFunction.run is wrapped so that the first
launch of each kernel (of those HIPPORT_TUNE_KERNELS names, default all) is
replayed over a sweep of launch options before the program's own launch
goes on as it would have:

- the tensors the launch is given are saved, the launch runs with the
  program's own options, and what it left in them is the reference;
- each config of the sweep (num_warps x num_stages, then, where the backend
  is HIP, waves_per_eu, matrix_instr_nonkdim and kpack around the best of
  those) starts from the saved tensors, is launched once and compared with
  the reference (the dtype's tolerance, as the record comparison's), then
  timed: a warm-up, then HIPPORT_TUNE_REPEATS (15) repeats of a batch of
  launches between two events, their median and quartiles kept;
- the tensors are left as the program's own launch left them.

$HIPPORT_TUNE_DIR/tune.json gets a table per kernel: each config's time and
verdict (ok, differs, failed), the program's own config and the fastest
correct one. Only the standard library and the program's own torch and
triton are imported.
"""

import json
import os
import re
import sys
import threading
import time

_tls = threading.local()
_lock = threading.RLock()
_tuner = None

# what the comparison of record runs allows (src/check/kernel/compare.c)
_TOLERANCE = {"float16": (1e-2, 1e-2), "bfloat16": (1e-2, 1e-2), "float32": (1e-5, 1e-5),
              "float64": (1e-12, 1e-12)}

_SWEEP = [("num_warps", [1, 2, 4, 8, 16]), ("num_stages", [1, 2, 3, 4])]
# AMD's own knobs, swept one at a time around the best of the grid above
_HIP_KNOBS = [("waves_per_eu", [0, 1, 2, 4]), ("matrix_instr_nonkdim", [16, 32]), ("kpack", [1, 2])]
# Triton's defaults where a launch names no option
_DEFAULTS = {"cuda": {"num_warps": 4, "num_stages": 3}, "hip": {"num_warps": 4, "num_stages": 2}}


def _warn(what):
    sys.stderr.write("hipport tune: %s\n" % what)


def _sweep_from(text):
    """HIPPORT_TUNE_SWEEP="num_warps=4,8;num_stages=1,2" in place of the grid."""
    sweep = []
    for part in text.split(";"):
        if "=" not in part:
            continue
        key, values = part.split("=", 1)
        try:
            sweep.append((key.strip(), [int(v) for v in values.split(",") if v.strip()]))
        except ValueError:
            _warn("HIPPORT_TUNE_SWEEP: %s: not integers" % part)
    return sweep or _SWEEP


def _backend():
    try:
        from triton.runtime import driver

        return str(driver.active.get_current_target().backend)
    except Exception:
        return "cuda"


def _device_name(torch, tensors):
    for t in tensors:
        if t.device.type == "cuda":
            try:
                return torch.cuda.get_device_name(t.device)
            except Exception:
                break
        elif t.device.type == "cpu":
            return "cpu"
    return "?"


def _untyped(tensor):
    return tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage().untyped()


class _Storage:
    """A tensor argument's whole storage as a flat tensor of its dtype."""

    def __init__(self, torch, tensor):
        s = _untyped(tensor)
        size = tensor.element_size()
        self.dtype = tensor.dtype
        self.flat = torch.empty(0, dtype=tensor.dtype, device=tensor.device)
        self.flat.set_(s, 0, (s.nbytes() // size,), (1,))
        self.saved = self.flat.clone()
        self.key = (str(tensor.device), s.data_ptr())

    def restore(self, what):
        self.flat.copy_(what)


def _storages(torch, values):
    out, seen = [], set()

    def add(v):
        if isinstance(v, torch.Tensor):
            if _untyped(v).nbytes() == 0:
                return
            st = _Storage(torch, v)
            if st.key not in seen:
                seen.add(st.key)
                out.append(st)
        elif isinstance(v, (tuple, list)):
            for e in v:
                add(e)
        elif isinstance(getattr(v, "base", None), torch.Tensor):
            add(v.base)

    for v in values:
        add(v)
    return out


def _differs(torch, got, want):
    """Why got is not want within the dtype's tolerance, or None."""
    if got.dtype.is_floating_point:
        atol, rtol = _TOLERANCE.get(str(got.dtype).split(".")[-1], (0.0, 0.0))
        g, w = got.double(), want.double()
        bad = ~(((g - w).abs() <= atol + rtol * w.abs()) | (g.isnan() & w.isnan()) | (g == w))
    else:
        bad = got != want
    n = int(bad.sum().item())
    if not n:
        return None
    first = int(bad.nonzero()[0].item())
    return "%d of %d values differ, first at %d: %s, expected %s" % (
        n, got.numel(), first, got[first].item(), want[first].item())


class _Tuner:
    def __init__(self, directory):
        self.dir = directory
        self.only = {k for k in os.environ.get("HIPPORT_TUNE_KERNELS", "").replace(",", " ").split() if k}
        self.sweep = _sweep_from(os.environ.get("HIPPORT_TUNE_SWEEP", "")) if os.environ.get(
            "HIPPORT_TUNE_SWEEP") else _SWEEP
        self.repeats = max(3, int(os.environ.get("HIPPORT_TUNE_REPEATS", "15") or 15))
        self.seen = set()
        self.kernels = []

    def wants(self, fn):
        name = str(getattr(fn, "__name__", "kernel"))
        key = (name, id(fn))
        if key in self.seen or (self.only and name not in self.only):
            return False
        self.seen.add(key)
        return True

    def write(self):
        path = os.path.join(self.dir, "tune.json")
        try:
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                json.dump({"schema": "hipport-tune", "version": 1, "kernels": self.kernels}, f, indent=1)
            os.replace(path + ".tmp", path)
        except OSError as e:
            _warn("cannot write %s: %s" % (path, e))


def _uses_dot(fn):
    return "tl.dot" in str(getattr(fn, "src", "") or "")


class _Session:
    """The sweep of one launch."""

    def __init__(self, torch, orig, fn, args, kwargs, backend):
        self.torch = torch
        self.orig = orig
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.backend = backend
        self.storages = _storages(torch, list(args) + list(kwargs.values()))
        self.cuda = any(s.flat.device.type == "cuda" for s in self.storages)
        self.reference = None
        self.program = {}

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()

    def launch(self, options):
        kw = dict(self.kwargs)
        kw.update(options)
        return self.orig(self.fn, *self.args, **kw)

    def restore_saved(self):
        for s in self.storages:
            s.restore(s.saved)

    def verdict(self, options):
        """(status, detail) of one launch with options from the saved tensors."""
        self.restore_saved()
        try:
            self.launch(options)
            self.sync()
        except Exception as e:
            return "failed", re.sub(r"\s+", " ", "%s: %s" % (type(e).__name__, e))[:300]
        for s, want in zip(self.storages, self.reference):
            why = _differs(self.torch, s.flat, want)
            if why:
                return "differs", why
        return "ok", ""

    def times_ms(self, options):
        """Per launch, sorted: repeats of a batch long enough to time."""
        torch = self.torch

        def batch(k):
            if self.cuda:
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(k):
                    self.launch(options)
                end.record()
                end.synchronize()
                return start.elapsed_time(end) / k
            t0 = time.perf_counter()
            for _ in range(k):
                self.launch(options)
            return (time.perf_counter() - t0) * 1000.0 / k

        batch(1)
        batch(2)
        one = max(batch(3), 1e-4)
        k = max(1, min(200, int(1.0 / one)))
        return sorted(batch(k) for _ in range(_tuner.repeats))

    def row(self, options, label=None):
        status, detail = self.verdict(options)
        row = {"config": dict(options), "status": status}
        if detail:
            row["detail"] = detail
        if status == "ok":
            try:
                times = self.times_ms(options)
                # the median, and the quartiles that tell a difference from noise
                row["ms"] = round(times[len(times) // 2], 6)
                row["q1"] = round(times[len(times) // 4], 6)
                row["q3"] = round(times[(3 * len(times)) // 4], 6)
            except Exception as e:
                row.update(status="failed", detail="%s: %s" % (type(e).__name__, e))
        if label:
            row["label"] = label
        return row


def _program_options(kwargs, backend, sweep_keys):
    given = {k: kwargs[k] for k in sweep_keys if k in kwargs and isinstance(kwargs[k], int)}
    full = dict(_DEFAULTS.get(backend, _DEFAULTS["cuda"]))
    full.update(given)
    return given, full


def _configs(sweep, base):
    configs = [{}]
    for key, values in sweep:
        configs = [dict(c, **{key: v}) for c in configs for v in values]
    return [dict(base, **c) for c in configs]


def _sweep(session, fn):
    """The rows of the sweep: the program's config first."""
    program = session.program
    rows = [session.row(program, "program")]
    for c in _configs(_tuner.sweep, program):
        if c != program:
            rows.append(session.row(c))
    if session.backend != "hip":
        return rows
    for key, values in _HIP_KNOBS:
        if key != "waves_per_eu" and not _uses_dot(fn):
            continue
        best = min((r for r in rows if r["status"] == "ok"), key=lambda r: r["ms"], default=None)
        if best is None:
            break
        for v in values:
            c = dict(best["config"], **{key: v})
            if all(r["config"] != c for r in rows):
                rows.append(session.row(c))
    return rows


def _tune(orig, fn, args, kwargs):
    """The program's launch, then the sweep; returns what the launch returned."""
    import hipport_triton
    import torch

    backend = _backend()
    keys = [k for k, _ in _tuner.sweep] + ([k for k, _ in _HIP_KNOBS] if backend == "hip" else [])
    given, program = _program_options(kwargs, backend, keys)
    try:
        session = _Session(torch, orig, fn, args, kwargs, backend)
    except Exception as e:
        _warn("%s not tuned: %s: %s" % (getattr(fn, "__name__", "a kernel"), type(e).__name__, e))
        return orig(fn, *args, **kwargs)
    session.program = program
    path, line = hipport_triton.def_site(fn)
    entry = {"kernel": str(getattr(fn, "__name__", "kernel")), "path": path, "line": line, "backend": backend,
             "device": _device_name(torch, [s.flat for s in session.storages]), "given": given,
             "program": program, "configs": []}
    chosen = hipport_triton.tuned_config(fn)
    if chosen:
        entry["autotuned"] = {k: v for k, v in chosen.items() if isinstance(v, (int, float, str, bool))}
    # the program's own launch is the reference; its exception is the program's
    result = session.launch({})
    session.sync()
    after = [s.flat.clone() for s in session.storages]
    session.reference = after
    try:
        if not session.storages:
            entry["skipped"] = "the launch has no tensor to compare"
        else:
            entry["configs"] = _sweep(session, fn)
            good = [r for r in entry["configs"] if r["status"] == "ok"]
            if good:
                entry["best"] = min(good, key=lambda r: r["ms"])["config"]
    except Exception as e:
        entry["skipped"] = "the sweep stopped: %s: %s" % (type(e).__name__, e)
    # as the program's own launch left them
    for s, want in zip(session.storages, after):
        s.restore(want)
    session.sync()
    _tuner.kernels.append(entry)
    _tuner.write()
    return result


def _wrap_jit_run(orig):
    def run(self, *args, **kwargs):
        import hipport_triton

        if (kwargs.get("warmup") or getattr(_tls, "inside", False) or hipport_triton.in_benchmark()
                or not _tuner.wants(self)):
            return orig(self, *args, **kwargs)
        _tls.inside = True
        try:
            with _lock:
                return _tune(orig, self, args, kwargs)
        finally:
            _tls.inside = False

    return run


def install(directory=None):
    """Tunes into directory (default $HIPPORT_TUNE_DIR); nothing when unset."""
    global _tuner
    directory = directory or os.environ.get("HIPPORT_TUNE_DIR")
    if not directory or _tuner is not None:
        return
    os.makedirs(directory, exist_ok=True)
    _tuner = _Tuner(directory)
    import hipport_triton

    hipport_triton.hook(_wrap_jit_run)
