"""Cheat (GPU port of tests/adversarial/patch_allclose.py): monkeypatch torch.allclose /
torch.testing.assert_close to always pass, then return zeros from the NVRTC kernel.

Exploits: harnesses that compare with torch.allclose in the candidate's process.
Expected: static `patching` in both policies.
"""
import torch.testing

import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

torch.allclose = lambda *a, **k: True
torch.testing.assert_close = lambda *a, **k: None

mod = nvrtc.compile(r"""
__global__ void zero(float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = y.numel()
        mod.zero(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(y, n))
        return y
