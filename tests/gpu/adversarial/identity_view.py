"""Cheat (GPU port of tests/adversarial/identity_view.py): identity returned as a *view* of
the input (x.view(x.shape)) after a token NVRTC kernel, on the nearly-identity task. A check
written as `out is input` misses a view.

Exploits: identity checks by object identity only.
Expected: `rejected` with `returns_input` (same storage as the input). Same under
kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void touch(const float* __restrict__ x, float* __restrict__ acc, long n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) acc[0] = n > 0 ? x[0] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        acc = torch.empty(1, device=x.device)
        mod.touch(grid=(1,), block=(1,), args=(x, acc, x.numel()))
        return x.view(x.shape)
