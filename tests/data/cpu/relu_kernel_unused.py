"""Compiles a kernel but never calls it (a dead branch): `kernelbench` rejects it."""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")


class ModelNew(nn.Module):
    def forward(self, x):
        if x.numel() < 0:
            y = torch.empty_like(x)
            lib.relu(x, y, x.numel())
            return y
        return torch.relu(x)
