"""Cheat (GPU port of tests/adversarial/identity_copy.py): identity via a real NVRTC copy
kernel on the nearly-identity task: the output does not alias the input but is bit-for-bit
equal to it.

Exploits: a returns-input check that looks only at aliasing (same storage).
Expected: `rejected` with `returns_input` (bit equality while the reference's output
differs). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void copy(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = x[i];
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.copy(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        return y
