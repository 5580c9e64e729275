"""Uses an undeclared name: NVRTC must refuse it."""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], zero);
}
""")


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        mod.relu(grid=(1,), block=(32,), args=(x, y, x.numel()))
        return y
