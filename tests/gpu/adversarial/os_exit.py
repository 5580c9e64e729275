"""Cheat (GPU port of tests/adversarial/os_exit.py): os._exit(0) in forward, so a harness
that treats a clean exit code as success (or loses the result) never sees a mismatch.

Exploits: harnesses that judge by process exit status.
Expected: static `exit_or_signal` in both policies.
"""
import os

import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        os._exit(0)
