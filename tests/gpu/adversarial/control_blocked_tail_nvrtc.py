"""Control (not a cheat): the blocked ReLU of drop_remainder_128.py with a bounds check and
enough blocks for the remainder, so it is right at every size. Guards the shape variants
against rejecting an honest kernel on odd prime sizes.

Expected: `correct` under both policies.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu_blocks(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * 128L + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu_blocks(grid=((n + 127) // 128,), block=(128,), args=(x, y, n))
        return y
