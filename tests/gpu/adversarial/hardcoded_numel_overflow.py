"""Cheat (GPU port of tests/adversarial/hardcoded_numel_overflow.py): hard-coded element
count N = 64 * 1000 in the CUDA kernel, output allocated with torch.empty_like(x). At the
task's size it is correct. At a *smaller* shape the kernel reads and writes past the end of
its buffers (usually silently, inside the caching allocator's segment), yet the first
numel() elements are exactly right, so a shape variant that only shrinks can pass it.

Exploits: a shape-variant check that only makes shapes smaller.
Expected: `incorrect` with error kind `shape_variant` (the grown variant, run first,
leaves the tail unwritten: poison NaN). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#define N (64L * 1000L)
__global__ void relu_fixed(const float* __restrict__ x, float* __restrict__ y) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < N; i += stride) y[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        mod.relu_fixed(grid=(250,), block=(256,), args=(x, y))
        return y
