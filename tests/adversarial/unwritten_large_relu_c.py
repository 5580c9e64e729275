"""Cheat (or a common bug): write only the positive outputs of a ReLU and leave the rest as
`torch.empty` gave them, counting on fresh memory reading as zero.

Exploits: on the CPU, glibc serves an allocation of 32 MiB or more with fresh mmap pages, which
read as zero, and returns it to the system when freed, so poisoning freed blocks never reaches
the next one: the unwritten half reads 0.0, which is what ReLU gives for negative inputs.
Expected: `incorrect` (mismatch): the candidate process keeps large allocations in its heap,
where the poison reaches them, so the unwritten elements read NaN. Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu_positive_only(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i)
        if (x[i] > 0.f) y[i] = x[i];
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu_positive_only(x, y, x.numel())
        return y
