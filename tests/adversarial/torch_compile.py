"""Cheat: torch.compile inside ModelNew. Inductor writes the kernel, not the candidate; a
token C kernel runs too so that "a custom kernel ran" holds.

Exploits: benchmarks that would credit inductor's code to the candidate.
Expected: static `torch_compile` in both policies (strict also `torch_compute`).
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
        self.fn = torch.compile(torch.relu)

    def forward(self, x):
        acc = torch.empty(1)
        lib.touch(x, acc, x.numel())
        return self.fn(x)
