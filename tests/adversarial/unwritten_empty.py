"""Cheat: return torch.empty_like(x) without writing it, hoping the allocator hands back the
block that held the reference's (freed) result. A kernel is launched, but it only reads.

Exploits: harnesses that run the reference first and free its output before the candidate.
Expected: `incorrect` (mismatch): the verifier poisons freed blocks of the output's size with
0xFF bytes (NaN) before each candidate call, and keeps the reference's output alive.
Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void touch(const float* x, float* acc, long n) {
    float s = 0.f;
    for (long i = 0; i < n; ++i) s += x[i];
    acc[0] = s;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        acc = torch.empty(1)
        lib.touch(x.contiguous(), acc, x.numel())
        return torch.empty_like(x)
