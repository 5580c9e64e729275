"""Spins forever on a value that never changes: the verifier must time out and recover."""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    volatile const float* vx = x;
    while (vx[0] == vx[0]) { }
    y[0] = x[0];
}
""")


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        mod.relu(grid=(1,), block=(32,), args=(x, y, x.numel()))
        return y
