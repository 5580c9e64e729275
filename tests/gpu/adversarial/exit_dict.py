"""Cheat (GPU port of tests/adversarial/exit_dict.py): os._exit reached through the
module's __dict__ (`os.__dict__["_ex" + "it"](0)`): neither a dotted os._exit nor
getattr(os, <computed>) appears.

Exploits: static rules that match dotted names and getattr only.
Expected: `exit_or_signal` or `introspection` (module __dict__ access) in both policies.
If missed the worker dies and the verdict is `runtime_error`.
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
        os.__dict__["_ex" + "it"](0)
