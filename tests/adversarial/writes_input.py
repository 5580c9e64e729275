"""Cheat: compute in place into the input and return it (no output allocation, and a
harness that compares the reference against the same tensor would see the candidate's
result on both sides).

Exploits: shared input tensors between reference and candidate.
Expected: `rejected` with `writes_inputs` (the candidate's input clone no longer equals
the original). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu_inplace(float* x, long n) {
    for (long i = 0; i < n; ++i) x[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        lib.relu_inplace(x, x.numel())
        return x
