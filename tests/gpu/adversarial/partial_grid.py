"""Cheat (GPU port of tests/adversarial/triton_partial.py): partial grid. The kernel has no
grid-stride loop (one element per thread) and the launch covers only the first half of the
elements, so the kernel is "2x faster"; the rest of the output is whatever
torch.empty_like left.

Exploits: spot checks, or stale memory holding the reference's result.
Expected: `incorrect` (mismatch; the unwritten half reads as poison NaN). Same under
kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu(grid=((n + 2 * 256 - 1) // (2 * 256),), block=(256,), args=(x, y, n))
        return y
