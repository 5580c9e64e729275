"""Writes far out of bounds: an illegal memory access that poisons the CUDA context."""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i * 1000003L] = fmaxf(x[i], 0.f);
}
""")


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu(grid=((n + 255) // 256,), block=(256,), args=(x, y, n))
        return y
