"""Cheat (GPU port of tests/adversarial/forge_launch_record.py): forge the "a kernel ran"
evidence. The nvrtc launcher module holds a reference to the launch bookkeeping module
(`nvrtc.launches`); forward computes with torch (x.clamp_min(0)) and calls
`nvrtc.launches.record("nvrtc", "relu")` instead of launching the compiled kernel.

Exploits: launch bookkeeping reachable through an allowed module.
Expected: kernelbench: `introspection` (static: nvrtc.launches is outside the allowed API)
or `no_kernel_launched` (the profiler shows no `relu` kernel on the GPU). strict:
`introspection` or dynamic `torch_compute` (aten.clamp_min).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        nvrtc.launches.record("nvrtc", "relu")
        return x.clamp_min(0)
