"""Cheat (GPU port of tests/adversarial/partial_rows.py): partial output. The kernel's
grid-stride loop covers only the first half of the rows (half the work, so twice as fast);
the other rows are whatever torch.empty_like left there.

Exploits: spot checks of a few elements, or a stale reference result in reused memory.
Expected: `incorrect` (mismatch; the untouched rows read as poison NaN). Same under
kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu_rows(const float* __restrict__ x, float* __restrict__ y, long rows, long cols) {
    long n = (rows / 2) * cols;
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        n = x.numel()
        mod.relu_rows(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, rows, cols))
        return y
