"""Cheat: identity via a real copy kernel on the nearly-identity task: the C kernel copies
x into a fresh output, so the output does not alias the input but is bit-for-bit equal.

Exploits: a returns-input check that looks only at aliasing (same storage).
Expected: `rejected` with `returns_input` (the output equals an input bit for bit while the
reference's output does not). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void copy(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i];
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.copy(x, y, x.numel())
        return y
