"""Cheat: output cache keyed on the input shape. The kernel runs once; every later call with
the same shape returns the first result.

Exploits: harnesses that check only one trial, or time without re-checking.
Expected: `incorrect` (mismatch) at trial 1, since every trial uses a fresh seed. Same
under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}

    def forward(self, x):
        key = tuple(x.shape)
        if key not in self.cache:
            x = x.contiguous()
            y = torch.empty_like(x)
            lib.relu(x, y, x.numel())
            self.cache[key] = y
        return self.cache[key]
