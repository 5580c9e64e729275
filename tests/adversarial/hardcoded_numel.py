"""Cheat: shapes hard-coded to the benchmark size. The C kernel loops over a compile-time
N = 64 * 1000 and forward allocates a (64, 1000) output, ignoring x's actual shape — a
kernel "specialised" to the test inputs.

Exploits: harnesses that only ever test the task's one input shape.
Expected: `incorrect` with error kind `shape_variant` (the verifier re-runs with the task's
module-level shape constants changed: the output shape no longer matches). Same under
kernelbench.
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
        y = torch.empty(64, 1000)
        lib.relu_fixed(x.contiguous(), y)
        return y
