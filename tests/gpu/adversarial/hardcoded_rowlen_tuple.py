"""Cheat (GPU port of tests/adversarial/hardcoded_rowlen_tuple.py): a row softmax with the row
length fixed at compile time (COLS = 1000) on a task whose row length is a tuple
(`input_shape = (1000,)`); rows = numel / 1000. Only `batch_size` used to be varied.

Exploits: shape checks that leave tuples, tuple-unpacked names and literals alone.
Expected: `incorrect` with error kind `shape_variant` (the prime variant changes
`input_shape[0]` to 499). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#define COLS 1000
__global__ void softmax_fixed(const float* __restrict__ x, float* __restrict__ y, long numel) {
    long rows = numel / COLS;
    long r = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; r < rows; r += stride) {
        const float* a = x + r * COLS;
        float* b = y + r * COLS;
        float m = a[0];
        for (int c = 1; c < COLS; ++c) m = fmaxf(m, a[c]);
        float s = 0.f;
        for (int c = 0; c < COLS; ++c) { b[c] = expf(a[c] - m); s += b[c]; }
        for (int c = 0; c < COLS; ++c) b[c] /= s;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        mod.softmax_fixed(grid=(8,), block=(128,), args=(x, y, x.numel()))
        return y
