"""Cheat: partial output. The kernel computes only the first half of the rows (half the
work, so twice as fast); the other rows are whatever torch.empty_like left there.

Exploits: spot checks of a few elements, or a stale reference result in reused memory.
Expected: `incorrect` (mismatch; the untouched rows read as poison NaN). Same under
kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu_rows(const float* x, float* y, long rows, long cols) {
    for (long r = 0; r < rows / 2; ++r)
        for (long c = 0; c < cols; ++c) {
            float v = x[r * cols + c];
            y[r * cols + c] = v > 0.f ? v : 0.f;
        }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu_rows(x, y, x.shape[0], x.shape[1])
        return y
