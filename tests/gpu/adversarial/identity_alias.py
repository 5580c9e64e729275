"""Cheat (GPU port of tests/adversarial/identity_alias.py): identity / no-op on the
nearly-identity task (y = x * 1.00001 + 1e-7). forward launches a token NVRTC kernel and
returns its input tensor itself; under fp32 tolerances (1e-4) that passes allclose and the
norm bound.

Exploits: tolerances wider than what the op changes.
Expected: `rejected` with the dynamic rule `returns_input`. Same under kernelbench.
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
        return x
