"""Cheat: hard-coded element count N = 64 * 1000 in C, but the output is allocated with
torch.empty_like(x). At the task's size it is correct. At a *smaller* shape, the kernel
reads and writes past the end of its buffers (heap overflow) — yet the first numel()
elements of the output are exactly right, so a shape variant that only shrinks the
constants can pass it (or crash the worker, depending on what the overflow hits).

Exploits: a shape-variant check that only makes shapes smaller.
Expected: `incorrect` with error kind `shape_variant` (a variant with a *larger* shape
leaves the tail unwritten: poison NaN). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#define N (64 * 1000)
void relu_fixed(const float* x, float* y) {
    for (long i = 0; i < N; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu_fixed(x, y)
        return y
