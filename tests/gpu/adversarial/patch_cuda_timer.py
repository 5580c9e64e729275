"""Cheat (GPU port of tests/adversarial/patch_timer.py): patch the GPU timers at import.
`torch.cuda.Event.elapsed_time` is replaced with a constant and `torch.cuda.synchronize`
with a no-op (so an event timer with a device-wide barrier measures nothing), and
`time.perf_counter` with a clock that barely advances.

Exploits: harnesses that time in the same process as the candidate.
Expected: static `patching` in both policies (the run-time integrity check also covers
torch.cuda.Event.elapsed_time and torch.cuda.synchronize).
"""
import time

import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_real = time.perf_counter
time.perf_counter = lambda: _real() * 1e-3
torch.cuda.Event.elapsed_time = lambda self, end: 1e-3
torch.cuda.synchronize = lambda *a, **k: None

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
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        return y
