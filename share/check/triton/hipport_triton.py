"""Launch recording of Triton kernels for hipport's record-and-compare checks
(docs/checks.md, "Triton kernels: record and compare").

sitecustomize.py installs this when HIPPORT_RECORD_DIR is set: once
triton.runtime.jit is imported, JITFunction.run (what kernel[grid](...)
calls) is wrapped so that each launch writes $HIPPORT_RECORD_DIR/launches.log
as share/check/hipport_record.h does for CUDA, for the same reader
(src/check/kernel/launch_log.c) and comparison (src/check/record/record.c):
a "launch" line, then an "arg" line per kernel parameter, a tensor being a
pointer into its whole storage, hashed before and after the launch and kept
after it as SEQ.ARG.bin up to HIPPORT_RECORD_MAX bytes. What an autotuning
config or a launch option chooses (BLOCK_SIZE from triton.Config,
num_warps, num_stages, ...) may differ between platforms: it is kept in
SEQ.config, not among the arguments. Launches of autotuning's and
triton.testing's benchmarks are not recorded. Only the standard library is
imported here; torch only when a launch hands it a tensor.
"""

import hashlib
import os
import re
import struct
import sys
import threading

_MAX_DEFAULT = 64 << 20
_CHUNK = 64 << 20

_tls = threading.local()
_lock = threading.RLock()
_warned = set()
_recorder = None


def _warn(what):
    if what not in _warned:
        _warned.add(what)
        sys.stderr.write("hipport record: %s\n" % what)


def _env_int(name, default):
    try:
        return int(os.environ.get(name, ""))
    except ValueError:
        return default


def _bench_depth():
    return getattr(_tls, "bench", 0)


def _tuners():
    if not hasattr(_tls, "tuners"):
        _tls.tuners = []
    return _tls.tuners


class _Recorder:
    """The log of one process: a RUN may start several, one after the other,
    each going on after the launches already logged."""

    def __init__(self, directory):
        self.dir = directory
        self.max_bytes = _env_int("HIPPORT_RECORD_MAX", _MAX_DEFAULT)
        self.max_launches = _env_int("HIPPORT_RECORD_LAUNCHES", 16)
        self.pid = None
        self.log = None

    def ready(self):
        if self.pid == os.getpid():
            return self.log is not None
        # a forked child counts again (its parent flushed what it logged)
        self.pid = os.getpid()
        self.log = None
        self.seq = 0
        self.counts = {}
        path = os.path.join(self.dir, "launches.log")
        try:
            with open(path, "r", encoding="utf-8", errors="replace") as f:
                self.seq = sum(1 for line in f if line.startswith("launch "))
        except OSError:
            pass
        try:
            self.log = open(path, "a", encoding="utf-8")
        except OSError:
            _warn("cannot write %s" % path)
        return self.log is not None

    def capture_this(self, name):
        n = self.counts.get(name, 0)
        self.counts[name] = n + 1
        return n < self.max_launches


# torch's and Triton's element type names as the comparison knows them
_DTYPES = {
    "float16": "f16", "half": "f16", "fp16": "f16",
    "bfloat16": "bf16", "bf16": "bf16",
    "float32": "f32", "float": "f32", "fp32": "f32",
    "float64": "f64", "double": "f64", "fp64": "f64",
    "int8": "i8", "i8": "i8", "uint8": "u8", "u8": "u8",
    "int16": "i16", "short": "i16", "i16": "i16", "uint16": "u16", "u16": "u16",
    "int32": "i32", "int": "i32", "i32": "i32", "uint32": "u32", "u32": "u32",
    "int64": "i64", "long": "i64", "i64": "i64", "uint64": "u64", "u64": "u64",
    # complex numbers as their parts
    "complex32": "f16", "chalf": "f16", "complex64": "f32", "cfloat": "f32",
    "complex128": "f64", "cdouble": "f64",
}


def _dtype_name(dtype):
    # bool, fp8 and whatever else: compared as bytes
    return _DTYPES.get(str(dtype).split(".")[-1], "u8")


def _hash(chunks):
    h = hashlib.blake2b(digest_size=8)
    for c in chunks:
        h.update(c)
    return h.hexdigest()


def _stable_repr(v):
    # object addresses differ between runs; what they point to is not compared
    return re.sub(r"0x[0-9a-fA-F]+", "0x", repr(v))


def _scalar(dtype, data):
    return ("scalar", dtype, data.hex())


def _hashed(v):
    return _scalar("u8", hashlib.blake2b(_stable_repr(v).encode("utf-8"), digest_size=8).digest())


def _int(v):
    if -(1 << 63) <= v < (1 << 63):
        return _scalar("i64", struct.pack("<q", v))
    if 0 <= v < (1 << 64):
        return _scalar("u64", struct.pack("<Q", v))
    return _hashed(v)


def _unwrap(v):
    # tl.constexpr(4) stands for 4
    if type(v).__name__ == "constexpr" and hasattr(v, "value"):
        return v.value
    return v


def _torch_tensor(v):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(v, torch.Tensor)


class _Pointer:
    """A tensor argument: its storage, hashed before and after the launch."""

    def __init__(self, tensor, dtype):
        self.tensor = tensor
        self.dtype = dtype
        s = tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage().untyped()
        self.storage = s
        self.nbytes = s.nbytes()
        self.offset = tensor.data_ptr() - s.data_ptr()
        self.key = (str(tensor.device), s.data_ptr()) if self.nbytes else None

    def chunks(self):
        """The storage's bytes, a piece at a time (a device's through the host)."""
        import ctypes

        if self.nbytes == 0:
            return
        if self.tensor.device.type == "cpu":
            yield ctypes.string_at(self.storage.data_ptr(), self.nbytes)
            return
        import torch

        whole = torch.empty(0, dtype=torch.uint8, device=self.tensor.device)
        whole.set_(self.storage, 0, (self.nbytes,), (1,))
        for at in range(0, self.nbytes, _CHUNK):
            host = whole[at:at + _CHUNK].cpu()
            yield ctypes.string_at(host.data_ptr(), host.numel())


def _pointer(v, dtype=None):
    try:
        return _Pointer(v, _dtype_name(dtype if dtype is not None else v.dtype))
    except Exception:
        return ("unknown", _dtype_name(getattr(v, "dtype", "")))


def _describe(v, param, out):
    """Appends what argument value v of a non-constexpr parameter is:
    ("scalar", dtype, hex), ("unknown", dtype) or a _Pointer; a tuple's
    elements one after the other."""
    v = _unwrap(v)
    if v is None:
        out.append(("unknown", "u8"))
    elif _torch_tensor(v):
        out.append(_pointer(v))
    elif _torch_tensor(getattr(v, "base", None)):
        # triton.reinterpret's wrapper, a tensor descriptor: the tensor under it
        out.append(_pointer(v.base, getattr(v, "dtype", None)))
    elif hasattr(v, "data_ptr"):
        out.append(("unknown", _dtype_name(getattr(v, "dtype", ""))))
    elif isinstance(v, bool):
        out.append(_scalar("u8", bytes([v])))
    elif isinstance(v, int):
        out.append(_int(v))
    elif isinstance(v, float):
        # Triton passes a float as fp32 unless the parameter says fp64
        annotation = str(getattr(param, "annotation", ""))
        if "64" in annotation:
            out.append(_scalar("f64", struct.pack("<d", v)))
        else:
            try:
                out.append(_scalar("f32", struct.pack("<f", v)))
            except OverflowError:
                out.append(_scalar("f32", struct.pack("<f", float("inf") if v > 0 else float("-inf"))))
    elif isinstance(v, (tuple, list)):
        for e in v:
            _describe(e, param, out)
    else:
        try:
            # a numpy scalar
            item = v.item()
        except Exception:
            item = None
        if isinstance(item, (bool, int, float)):
            _describe(item, param, out)
        else:
            out.append(_hashed(v))


def _constexpr(v):
    v = _unwrap(v)
    if v is None:
        return ("unknown", "u8")
    if isinstance(v, bool):
        return _scalar("u8", bytes([v]))
    if isinstance(v, int):
        return _int(v)
    if isinstance(v, float):
        return _scalar("f64", struct.pack("<d", v))
    # a tl.dtype, a string, a function: stands for itself by its text
    return _hashed(v)


def _bind(fn, args, kwargs):
    """The kernel's parameters and their values, in signature order."""
    import inspect

    names = list(fn.arg_names)
    sig = getattr(fn, "signature", None) or inspect.signature(fn.fn)
    bound = sig.bind(*args, **{k: v for k, v in kwargs.items() if k in names})
    bound.apply_defaults()
    return bound.arguments


def _config_of(fn):
    """What the autotuner launching fn chose (its best config's
    all_kwargs()), else {}."""
    tuners = _tuners()
    if not tuners:
        return {}
    tuner = tuners[-1]
    base = getattr(tuner, "fn", None)
    while base is not None and base is not fn and hasattr(base, "fn"):
        base = base.fn
    config = getattr(tuner, "best_config", None)
    if base is not fn or config is None:
        return {}
    if hasattr(config, "all_kwargs"):
        return dict(config.all_kwargs())
    return dict(getattr(config, "kwargs", {}))


_sites = {}


def def_site(fn):
    """The absolute path and line of the kernel's def (past its decorators)."""
    f = getattr(fn, "fn", None)
    code = getattr(f, "__code__", None)
    if code is None:
        return "?", 0
    import inspect

    path, line = os.path.abspath(code.co_filename), code.co_firstlineno
    try:
        lines, start = inspect.getsourcelines(f)
        for i, text in enumerate(lines):
            if text.lstrip().startswith("def "):
                line = start + i
                break
    except (OSError, TypeError):
        pass
    return path, line


def _site(fn):
    """path:line of the kernel's def: the path relative to the working
    directory (the program's, the same in both trees), else absolute."""
    key = id(fn)
    if key in _sites:
        return _sites[key]
    full, line = def_site(fn)
    cwd = os.getcwd()
    path = os.path.relpath(full, cwd) if full.startswith(cwd + os.sep) else full
    site = re.sub(r"\s", "_", "%s:%d" % (path, line))[:255]
    _sites[key] = site
    return site


def _sync(devices):
    """Waits for the GPU; False when that fails (the launch's error)."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available() or not torch.cuda.is_initialized():
        return True
    try:
        torch.cuda.synchronize()
        for d in devices:
            torch.cuda.synchronize(d)
        return True
    except Exception:
        return False


def _grid3(grid):
    if isinstance(grid, int):
        grid = (grid,)
    g = [int(x) for x in tuple(grid)[:3]]
    return g + [1] * (3 - len(g))


class _Launch:
    """One launch of fn, recorded."""

    def __init__(self, rec, fn, args, kwargs):
        self.rec = rec
        self.fn = fn
        self.name = re.sub(r"\s", "_", str(getattr(fn, "__name__", "kernel")))[:127]
        bound = _bind(fn, args, kwargs)
        constexprs = {p.name for p in getattr(fn, "params", []) if getattr(p, "is_constexpr", False)}
        params = {p.name: p for p in getattr(fn, "params", [])}
        tuned = _config_of(fn)
        # launch options and what a config chose: kept aside, not compared
        self.config = [(k, v) for k, v in kwargs.items() if k not in bound and k not in ("grid", "warmup")]
        self.config += [(k, v) for k, v in tuned.items() if k in bound]
        # threads as warps of 32, on AMD's wavefronts of 64 too: the log's block is not compared
        self.block = int(dict(self.config).get("num_warps") or 4) * 32
        self.grid = kwargs.get("grid")
        self.bound = bound
        self.grids = []
        self.kwargs = kwargs
        if callable(self.grid):
            # the grid Triton resolves, without calling it a second time
            def grid(*a, **k):
                g = self.grid(*a, **k)
                self.grids.append(g)
                return g

            self.kwargs = dict(kwargs, grid=grid)
        self.capture = rec.capture_this(self.name)
        self.args = []
        if self.capture:
            for name, value in bound.items():
                if name in tuned:
                    continue
                if name in constexprs:
                    self.args.append(_constexpr(value))
                else:
                    _describe(value, params.get(name), self.args)
        self.devices = {a.tensor.device for a in self.args if isinstance(a, _Pointer) and a.tensor.device.type == "cuda"}
        _sync(self.devices)
        seen = {}
        for i, a in enumerate(self.args):
            if isinstance(a, _Pointer):
                if a.key is not None and a.key in seen:
                    a.same = seen[a.key]
                    continue
                a.same = None
                if a.key is not None:
                    seen[a.key] = i
                a.before = _hash(a.chunks())

    def resolved_grid(self):
        if self.grids:
            return _grid3(self.grids[0])
        try:
            return _grid3(self.grid(dict(self.bound)) if callable(self.grid) else self.grid)
        except Exception:
            return [0, 0, 0]

    def finish(self, launch_status):
        rec = self.rec
        sync_ok = _sync(self.devices)
        seq = rec.seq
        rec.seq += 1
        lines = ["launch %d %s %s grid %d %d %d block %d 1 1 shared 0 status %d %d%s\n" % (
            (seq, self.name, _site(self.fn)) + tuple(self.resolved_grid()) +
            (self.block, launch_status, 0 if sync_ok else 1, "" if self.capture else " uncaptured"))]
        for i, a in enumerate(self.args):
            if not isinstance(a, _Pointer):
                if a[0] == "scalar":
                    lines.append("arg %d scalar %s %s\n" % (i, a[1], a[2]))
                else:
                    lines.append("arg %d pointer %s unknown\n" % (i, a[1]))
                continue
            if a.same is not None:
                lines.append("arg %d pointer %s same %d %d\n" % (i, a.dtype, a.same, a.offset))
                continue
            after, kept = a.before, "-"
            # after a failed synchronization the memory cannot be read
            if sync_ok:
                data = list(a.chunks()) if a.nbytes <= rec.max_bytes else None
                after = _hash(data if data is not None else a.chunks())
                if data is not None:
                    kept = "%d.%d.bin" % (seq, i)
                    try:
                        with open(os.path.join(rec.dir, kept), "wb") as f:
                            for c in data:
                                f.write(c)
                    except OSError:
                        kept = "-"
            lines.append("arg %d pointer %s %d %d %s %s %s\n" % (i, a.dtype, a.offset, a.nbytes, a.before, after, kept))
        if self.capture and self.config:
            try:
                with open(os.path.join(rec.dir, "%d.config" % seq), "w", encoding="utf-8") as f:
                    for k, v in self.config:
                        f.write("%s=%s\n" % (k, re.sub(r"[\r\n]", " ", str(_unwrap(v)))))
            except OSError:
                pass
        rec.log.write("".join(lines))
        rec.log.flush()


def _record(orig, fn, args, kwargs):
    with _lock:
        rec = _recorder
        if rec is None or not rec.ready():
            return orig(fn, *args, **kwargs)
        try:
            launch = _Launch(rec, fn, args, kwargs)
        except Exception as e:
            # what cannot be recorded still runs as it would
            _warn("%s not recorded: %s: %s" % (getattr(fn, "__name__", "a kernel"), type(e).__name__, e))
            return orig(fn, *args, **kwargs)
        status = 0
        try:
            return orig(fn, *args, **launch.kwargs)
        except BaseException:
            status = 1
            raise
        finally:
            try:
                launch.finish(status)
            except Exception as e:
                _warn("a launch of %s not recorded: %s: %s" % (launch.name, type(e).__name__, e))


def _capturing():
    # a CUDA graph being captured: a synchronization would break it
    torch = sys.modules.get("torch")
    capturing = getattr(getattr(torch, "cuda", None), "is_current_stream_capturing", None)
    try:
        return capturing is not None and torch.cuda.is_available() and capturing()
    except Exception:
        return False


def _wrap_jit_run(orig):
    def run(self, *args, **kwargs):
        if kwargs.get("warmup") or _bench_depth() or getattr(_tls, "inside", False) or _capturing():
            return orig(self, *args, **kwargs)
        _tls.inside = True
        try:
            return _record(orig, self, args, kwargs)
        finally:
            _tls.inside = False

    return run


def _wrap_tuner_run(orig):
    # the tuner whose config the launch inside takes
    def run(self, *args, **kwargs):
        tuners = _tuners()
        tuners.append(self)
        try:
            return orig(self, *args, **kwargs)
        finally:
            tuners.pop()

    return run


def _wrap_bench(orig):
    # launches made to time a config or a function are not the program's
    def bench(*args, **kwargs):
        _tls.bench = _bench_depth() + 1
        try:
            return orig(*args, **kwargs)
        finally:
            _tls.bench -= 1

    return bench


def _patch(owner, name, wrap):
    orig = getattr(owner, name, None)
    if orig is None or getattr(orig, "_hipport", False):
        return
    new = wrap(orig)
    new._hipport = True
    new.__name__ = getattr(orig, "__name__", name)
    new.__doc__ = getattr(orig, "__doc__", None)
    new.__wrapped__ = orig
    setattr(owner, name, new)


def _patch_autotuner(module):
    cls = getattr(module, "Autotuner", None)
    if cls is not None:
        _patch(cls, "run", _wrap_tuner_run)
        _patch(cls, "_bench", _wrap_bench)


def _patch_testing(module):
    for name in ("do_bench", "do_bench_cudagraph"):
        _patch(module, name, _wrap_bench)


def _patches(jit_wrap):
    """What to patch in each module once it has run: JITFunction.run with
    jit_wrap, and what tells a benchmark's launches from the program's."""
    return {
        "triton.runtime.jit": lambda m: getattr(m, "JITFunction", None) and _patch(m.JITFunction, "run", jit_wrap),
        "triton.runtime.autotuner": _patch_autotuner,
        "triton.testing": _patch_testing,
    }


def in_benchmark():
    """Whether a launch now is one of a benchmark's (autotuning's, do_bench's)."""
    return _bench_depth() > 0


def tuned_config(fn):
    """What the autotuner launching fn now chose, else {}."""
    return _config_of(fn)


class _Loader:
    """The module's own loader, its patch applied once the module has run."""

    def __init__(self, loader, patch):
        self._loader = loader
        self._patch = patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        try:
            self._patch(module)
        except Exception as e:
            _warn("cannot hook %s: %s: %s" % (module.__name__, type(e).__name__, e))

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _Finder:
    """Finds the modules to patch through the other finders, so that
    nothing is imported before the program imports it."""

    def __init__(self, patches):
        self._patches = patches
        self._busy = set()

    def find_spec(self, name, path=None, target=None):
        if name not in self._patches or name in self._busy:
            return None
        self._busy.add(name)
        try:
            spec = None
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                if finder is self or find is None:
                    continue
                spec = find(name, path, target)
                if spec is not None:
                    break
        finally:
            self._busy.discard(name)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _Loader(spec.loader, self._patches[name])
        return spec

    def invalidate_caches(self):
        pass


def hook_modules(patches):
    """Applies each patch (module name: function of the module) now to a
    module already imported, else once the program imports it."""
    sys.meta_path.insert(0, _Finder(patches))
    for name, patch in patches.items():
        if name in sys.modules:
            patch(sys.modules[name])


def hook(jit_wrap):
    """Wraps JITFunction.run with jit_wrap, now or once Triton is imported."""
    hook_modules(_patches(jit_wrap))


def install(directory=None):
    """Records into directory (default $HIPPORT_RECORD_DIR); nothing when unset."""
    global _recorder
    directory = directory or os.environ.get("HIPPORT_RECORD_DIR")
    if not directory or _recorder is not None:
        return
    _recorder = _Recorder(directory)
    hook(_wrap_jit_run)
