"""Times accumulate() of the original atomic_sem.py against its port (the
same file after `hipport apply --fix=TRITON-001`): the median of
triton.testing.do_bench, each on fresh zeros, and their ratio.

usage: python3 time_triton.py ORIGINAL.py FIXED.py
"""
import importlib.util
import sys

import torch
import triton


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    orig, fixed = load(sys.argv[1], "orig"), load(sys.argv[2], "fixed")
    n, block = 1 << 24, 1024
    torch.manual_seed(1234)
    x = torch.rand(n, device="cuda", dtype=torch.float32)
    print("device:", torch.cuda.get_device_name(), "triton", triton.__version__)
    for nbins in (1 << 20, 4096, 64):
        times, outs = [], []
        for mod in (orig, fixed):
            out = torch.zeros(nbins, device="cuda", dtype=torch.float32)
            run = lambda: mod.accumulate[(triton.cdiv(n, block),)](x, out, n, nbins, BLOCK=block)
            run()
            torch.cuda.synchronize()
            outs.append(out.clone())
            times.append(triton.testing.do_bench(run, warmup=25, rep=200, return_mode="median"))
        same = torch.allclose(outs[0], outs[1], rtol=1e-4)
        print(f"nbins {nbins:>8}: acq_rel {times[0] * 1e3:9.1f} us  relaxed {times[1] * 1e3:9.1f} us"
              f"  relaxed/acq_rel time {times[1] / times[0]:.2f}x  sums agree: {same}")


if __name__ == "__main__":
    main()
