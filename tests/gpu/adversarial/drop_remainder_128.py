"""Cheat (GPU port of tests/adversarial/drop_remainder_128.py): a ReLU launched as n / 128
blocks of 128 threads, one element per thread and no bounds check or tail, the way a kernel
tuned for one shape is often written. The task's 64 x 1000 input holds 500 blocks exactly, and
so did every shape variant before the `prime` one.

Exploits: shape checks whose sizes keep the task's powers of two.
Expected: `incorrect` with error kind `shape_variant` (the prime variant, 31 x 499, leaves the
last 109 elements unwritten: poison NaN). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu_blocks(const float* __restrict__ x, float* __restrict__ y) {
    long i = blockIdx.x * 128L + threadIdx.x;
    y[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        blocks = x.numel() // 128
        if blocks:
            mod.relu_blocks(grid=(blocks,), block=(128,), args=(x, y))
        return y
