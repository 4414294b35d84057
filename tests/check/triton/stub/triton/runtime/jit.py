import inspect

OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "debug")

# the launch options of the launch running now: a test's kernel may behave
# by them as a compiled one would (a config that fails, or computes otherwise)
current = {}


class KernelParam:
    def __init__(self, num, param):
        self.num = num
        self._param = param
        self.name = param.name
        a = param.annotation
        self.annotation = "" if a is inspect.Parameter.empty else a.__name__ if isinstance(a, type) else str(a)
        self.is_constexpr = "constexpr" in self.annotation


class KernelInterface:
    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid=grid, warmup=False, *args, **kwargs)


class JITFunction(KernelInterface):
    def __init__(self, fn):
        self.fn = fn
        self.signature = inspect.signature(fn)
        self.params = [KernelParam(i, p) for i, p in enumerate(self.signature.parameters.values())]
        self.arg_names = [p.name for p in self.params]
        self.__name__ = fn.__name__
        self.__module__ = fn.__module__

    def warmup(self, *args, grid, **kwargs):
        return self.run(grid=grid, warmup=True, *args, **kwargs)

    def run(self, *args, grid, warmup, **kwargs):
        for k in kwargs:
            if k not in self.arg_names and k not in OPTIONS:
                raise KeyError("Keyword argument %s was specified but unrecognised" % k)
        bound = self.signature.bind(*args, **{k: v for k, v in kwargs.items() if k in self.arg_names})
        bound.apply_defaults()
        bound_args = dict(bound.arguments)
        if warmup:
            return None
        if callable(grid):
            grid = grid(bound_args)
        assert len(grid) >= 1
        # the whole grid at once: the body works on whole tensors
        current.clear()
        current.update({k: v for k, v in kwargs.items() if k in OPTIONS})
        self.fn(**bound_args)
        return "kernel"


def jit(fn):
    return JITFunction(fn)
