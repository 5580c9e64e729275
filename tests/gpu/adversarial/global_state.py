"""Cheat (GPU port of tests/adversarial/global_state.py): global state across calls. A
module-level counter updated through `global` in forward: the kernel is launched only on
odd calls, and the previous output is returned on even calls.

Exploits: harnesses that judge each call in isolation.
Expected: static `hidden_state` (`global` in ModelNew.forward) in both policies.
"""
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

CALLS = 0
LAST = None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        global CALLS, LAST
        CALLS += 1
        if CALLS % 2 == 0 and LAST is not None and LAST.shape == x.shape:
            return LAST
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        LAST = y
        return y
