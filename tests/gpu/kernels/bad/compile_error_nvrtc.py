"""BAD candidate (nvrtc) for KernelBench level1/19_ReLU.py: does not compile.

The kernel assigns a float4 to a float (no conversion exists) and uses an undeclared identifier
`idx`; NVRTC rejects the source when nvrtc.compile runs at import. Expected verdict: compile_error.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__global__ void relu_broken(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = reinterpret_cast<const float4*>(x)[i];   // error: no conversion from float4 to float
        y[idx] = v < 0.0f ? 0.0f : v;                       // error: identifier "idx" is undefined
    }
}
"""

mod = nvrtc.compile(SRC)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu_broken(grid=((n + 255) // 256,), block=(256,), args=(x, y, n))
        return y
