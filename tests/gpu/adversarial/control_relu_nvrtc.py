"""Control (not a cheat): an honest NVRTC relu (grid-stride loop). Guards the GPU suite
against a verifier that rejects everything.

Expected: `correct` under both policies, with timing enabled.
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


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        return y
