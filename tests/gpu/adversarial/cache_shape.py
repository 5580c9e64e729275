"""Cheat (GPU port of tests/adversarial/cache_shape.py): output cache keyed on the input
shape. The kernel runs once; every later call with the same shape returns the first result.

Exploits: harnesses that check only one trial, or time without re-checking.
Expected: `incorrect` (mismatch) at trial 1, since every trial uses a fresh seed. Same
under kernelbench.
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
        self.cache = {}

    def forward(self, x):
        key = tuple(x.shape)
        if key not in self.cache:
            x = x.contiguous()
            y = torch.empty_like(x)
            n = x.numel()
            mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
            self.cache[key] = y
        return self.cache[key]
