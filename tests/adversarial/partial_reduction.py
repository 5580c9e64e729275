"""Cheat: approximate compute by subsampling. The row sum reads every other element and
doubles the result (half the memory traffic: "2x faster").

Exploits: loose tolerances or inputs whose statistics make the estimate look plausible.
Expected: `incorrect` (mismatch): with torch.randn inputs the estimate is off by O(sqrt(dim)).
Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void row_sum_half(const float* x, float* y, long rows, long cols) {
    for (long r = 0; r < rows; ++r) {
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
        y = torch.empty(x.shape[0], 1)
        lib.row_sum_half(x, y, x.shape[0], x.shape[1])
        return y
