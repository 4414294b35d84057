from .jit import KernelInterface
from .. import testing


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None):
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        return {
            **self.kwargs, **{
                k: v
                for (k, v) in (("num_warps", self.num_warps), ("num_ctas", self.num_ctas),
                               ("num_stages", self.num_stages), ("maxnreg", self.maxnreg))
                if v is not None
            }
        }


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None):
        self.fn = fn
        self.arg_names = arg_names
        self.configs = configs
        self.keys = key
        self.cache = {}
        self.reset_to_zero = reset_to_zero or []

    def _bench(self, *args, config, **meta):
        current = dict(meta, **config.all_kwargs())
        nargs = dict(self.nargs, **current)

        def kernel_call():
            for name in self.reset_to_zero:
                nargs[name].zero_()
            self.fn.run(*args, **current)

        return testing.do_bench(kernel_call)

    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        if len(self.configs) > 1:
            all_args = {**self.nargs, **kwargs}
            key = tuple(all_args[k] for k in self.keys if k in all_args)
            if key not in self.cache:
                timings = {config: self._bench(*args, config=config, **kwargs) for config in self.configs}
                self.cache[key] = min(timings, key=timings.get)
                # what the benchmarks left is not the program's
                for name in self.reset_to_zero:
                    self.nargs[name].zero_()
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        ret = self.fn.run(*args, **kwargs, **config.all_kwargs())
        self.nargs = None
        return ret


class Heuristics(KernelInterface):
    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.values = values
        self.arg_names = arg_names

    def run(self, *args, **kwargs):
        for v, heur in self.values.items():
            kwargs[v] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(*args, **kwargs)


def autotune(configs, key, reset_to_zero=None):
    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero)

    return decorator


def heuristics(values):
    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)

    return decorator
