import time


def do_bench(fn, warmup=1, rep=3, quantiles=None):
    for _ in range(warmup):
        fn()
    start = time.perf_counter()
    for _ in range(rep):
        fn()
    return (time.perf_counter() - start) / rep
