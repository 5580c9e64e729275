"""Cheat: identity / no-op on a nearly-identity task (y = x * 1.00001 + 1e-7). forward runs
a token kernel and returns its input tensor itself; under fp32 tolerances (1e-4) that
passes allclose and the norm bound.

Exploits: tolerances wider than what the op changes.
Expected: `rejected` with the dynamic rule `returns_input` (the output is the input's
memory while the reference's output is not equal to the input). Same under kernelbench.
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
        return x
