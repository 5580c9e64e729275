"""Cheat: a blocked ReLU that processes only whole blocks of 128 elements and drops the
remainder (no tail loop), the way a kernel written for one grid shape does. The task's
64 x 1000 input holds 500 blocks exactly, and so do the grown (80 x 1000) and the halved
(32 x 500) variants, so every shape the verifier used to try kept that divisibility.

Exploits: shape checks whose sizes keep the task's powers of two.
Expected: `incorrect` with error kind `shape_variant` (the `prime` variant, 31 x 499, leaves
the last 109 elements unwritten: poison NaN). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#define BLOCK 128
void relu_blocks(const float* x, float* y, long n) {
    long blocks = n / BLOCK;
    for (long b = 0; b < blocks; ++b)
        for (int i = 0; i < BLOCK; ++i) {
            float v = x[b * BLOCK + i];
            y[b * BLOCK + i] = v > 0.f ? v : 0.f;
        }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu_blocks(x, y, x.numel())
        return y
