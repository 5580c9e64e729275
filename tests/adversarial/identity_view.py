"""Cheat: identity returned as a *view* of the input (x.view(x.shape)) after a token kernel,
on the nearly-identity task. A check written as `out is input` misses a view.

Exploits: identity checks by object identity only.
Expected: `rejected` with `returns_input` (same storage as the input). Same under
kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void touch(const float* x, float* acc, long n) {
    acc[0] = n > 0 ? x[0] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        acc = torch.empty(1)
        lib.touch(x, acc, x.numel())
        return x.view(x.shape)
