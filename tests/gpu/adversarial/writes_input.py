"""Cheat (GPU port of tests/adversarial/writes_input.py): compute in place into the input
and return it (no output allocation, and a harness that compares the reference against the
same tensor would see the candidate's result on both sides).

Exploits: shared input tensors between reference and candidate.
Expected: `rejected` with `writes_inputs` (the candidate's input clone no longer equals
the original). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu_inplace(float* __restrict__ x, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) x[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        n = x.numel()
        mod.relu_inplace(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, n))
        return x
