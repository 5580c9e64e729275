"""Which NVRTC binding should the nvrtc backend use? CuPy against cuda-core, measured.

For each binding: the time to compile a small kernel from a new source (no cache hit),
and the host cost of one launch on torch's current stream. Our launcher (CuPy plus
argument checks) is measured too. Run on the GPU:

    PYTHONUNBUFFERED=1 python benchmarks/nvrtc_launchers.py --out results/nvrtc_launchers.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time

import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SRC = r"""
extern "C" __global__ void scale(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * %d.0f;
}
"""


def bench_cupy(x, y, n_compile, n_launch):
    import cupy

    os.environ["CUPY_CACHE_DIR"] = tempfile.mkdtemp()
    compile_s = []
    for k in range(n_compile):
        t = time.perf_counter()
        mod = cupy.RawModule(code=SRC % (k + 2), options=("-std=c++17",))
        fn = mod.get_function("scale")
        compile_s.append(time.perf_counter() - t)
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    args = (np.uint64(x.data_ptr()), np.uint64(y.data_ptr()), np.int64(x.numel()))
    fn((1,), (256,), args, stream=stream)
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n_launch):
        fn((1,), (256,), (np.uint64(x.data_ptr()), np.uint64(y.data_ptr()), np.int64(x.numel())), stream=stream)
    torch.cuda.synchronize()
    launch_us = (time.perf_counter() - t) / n_launch * 1e6
    return {"version": cupy.__version__, "compile_s": compile_s, "launch_us": launch_us}


def bench_cuda_core(x, y, n_compile, n_launch):
    try:
        from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch
    except ImportError:
        from cuda.core.experimental import Device, LaunchConfig, Program, ProgramOptions, launch
    import cuda.core as cc

    dev = Device()
    dev.set_current()
    arch = "".join(str(v) for v in dev.compute_capability)
    compile_s = []
    for k in range(n_compile):
        t = time.perf_counter()
        prog = Program(SRC % (k + 2), code_type="c++", options=ProgramOptions(std="c++17", arch=f"sm_{arch}"))
        kernel = prog.compile("cubin").get_kernel("scale")
        compile_s.append(time.perf_counter() - t)

    class TorchStream:
        def __init__(self, ptr):
            self.ptr = ptr

        def __cuda_stream__(self):
            return (0, self.ptr)

    stream = dev.create_stream(TorchStream(torch.cuda.current_stream().cuda_stream))
    cfg = LaunchConfig(grid=(1,), block=(256,))
    launch(stream, cfg, kernel, np.uint64(x.data_ptr()), np.uint64(y.data_ptr()), np.int64(x.numel()))
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n_launch):
        launch(stream, cfg, kernel, np.uint64(x.data_ptr()), np.uint64(y.data_ptr()), np.int64(x.numel()))
    torch.cuda.synchronize()
    launch_us = (time.perf_counter() - t) / n_launch * 1e6
    return {"version": getattr(cc, "__version__", "?"), "compile_s": compile_s, "launch_us": launch_us}


def bench_ours(x, y, n_compile, n_launch):
    from kernelmosaic.verify import nvrtc

    os.environ["CUPY_CACHE_DIR"] = tempfile.mkdtemp()
    compile_s = []
    for k in range(n_compile):
        t = time.perf_counter()
        mod = nvrtc.compile(SRC % (k + 100))
        kern = mod.scale
        compile_s.append(time.perf_counter() - t)
    kern(grid=(1,), block=(256,), args=(x, y, x.numel()))
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n_launch):
        kern(grid=(1,), block=(256,), args=(x, y, x.numel()))
    torch.cuda.synchronize()
    return {"compile_s": compile_s, "launch_us": (time.perf_counter() - t) / n_launch * 1e6}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--compiles", type=int, default=5)
    ap.add_argument("--launches", type=int, default=5000)
    a = ap.parse_args()
    x = torch.randn(256, device="cuda")
    y = torch.empty_like(x)
    res = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "date": time.strftime("%Y-%m-%d")}
    torch_launch = []
    for _ in range(3):
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(a.launches):
            torch.mul(x, 2.0, out=y)
        torch.cuda.synchronize()
        torch_launch.append((time.perf_counter() - t) / a.launches * 1e6)
    res["torch_mul_launch_us"] = min(torch_launch)
    for name, fn in (("cupy", bench_cupy), ("cuda_core", bench_cuda_core), ("kernelmosaic_nvrtc", bench_ours)):
        try:
            r = fn(x, y, a.compiles, a.launches)
            r["compile_median_s"] = statistics.median(r["compile_s"])
            ok = True
        except Exception as e:  # noqa: BLE001 - a binding that fails is a finding, not a crash
            r, ok = {"error": f"{type(e).__name__}: {e}"}, False
        res[name] = r
        print(f"{name:20s} " + (f"compile median {r['compile_median_s']*1e3:7.1f} ms  launch {r['launch_us']:6.2f} us" if ok else r["error"]), flush=True)
    print(f"{'torch.mul (reference)':20s} launch {res['torch_mul_launch_us']:.2f} us")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
