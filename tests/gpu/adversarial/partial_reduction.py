"""Cheat (GPU port of tests/adversarial/partial_reduction.py): approximate compute by
subsampling. The row sum reads every other element and doubles the result (half the
memory traffic: "2x faster").

Exploits: loose tolerances or inputs whose statistics make the estimate look plausible.
Expected: `incorrect` (mismatch): with torch.randn inputs the estimate is off by
O(sqrt(dim)). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void row_sum_half(const float* __restrict__ x, float* __restrict__ y, long rows, long cols) {
    long r = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; r < rows; r += stride) {
        float s = 0.f;
        for (long c = 0; c < cols; c += 2) s += x[r * cols + c];
        y[r] = 2.f * s;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty(rows, 1, device=x.device)
        mod.row_sum_half(grid=((rows + 127) // 128,), block=(128,), args=(x, y, rows, cols))
        return y
