"""Honest control for unwritten_large_relu_c.py: the same C path, every output written.

Expected: `correct` under both policies (a kernel of its own, no torch compute)."""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu_all(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i)
        y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu_all(x, y, x.numel())
        return y
