"""Control (not a cheat): the blocked ReLU of drop_remainder_128.py with its tail loop, so it
is right at every size. Guards the shape variants against rejecting blocked kernels that
handle the remainder.

Expected: `correct` under both policies.
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
    for (long i = blocks * BLOCK; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
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
