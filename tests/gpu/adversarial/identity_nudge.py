"""Cheat (GPU port of tests/adversarial/identity_nudge.py): a "nudged" identity on the
nearly-identity task. The NVRTC kernel copies x but moves every element by one ulp
(nextafterf towards +inf; INFINITY is not defined under NVRTC, so it is built with
__int_as_float(0x7f800000)). The output neither aliases nor bit-equals the input, yet it is
~100x closer to the input than the reference is.

Exploits: a returns-input check that requires exact bit equality.
Expected: `rejected` with `returns_input` in both policies (the output stays within a
tenth of the reference's distance from the input).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void nudge(const float* __restrict__ x, float* __restrict__ y, long n) {
    const float inf = __int_as_float(0x7f800000);
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = nextafterf(x[i], inf);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.nudge(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        return y
