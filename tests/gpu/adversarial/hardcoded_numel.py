"""Cheat (GPU port of tests/adversarial/hardcoded_numel.py): shapes hard-coded in the CUDA
kernel. The kernel's loop bound is a compile-time N = 64 * 1000 (no size parameter) and
forward allocates a (64, 1000) output, ignoring x's actual shape: a kernel "specialised" to
the test inputs.

Exploits: harnesses that only ever test the task's one input shape.
Expected: `incorrect` with error kind `shape_variant` (the grown variant's output shape no
longer matches). Same under kernelbench.
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
        y = torch.empty(64, 1000, device=x.device)
        mod.relu_fixed(grid=(250,), block=(256,), args=(x.contiguous(), y))
        return y
