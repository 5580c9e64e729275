"""Control (not a cheat): an honest NVRTC kernel for the nearly-identity task
(y = x * 1.00001f + 1e-7f, the reference's own fp32 arithmetic; __fmul_rn/__fadd_rn keep
nvcc/NVRTC from contracting it into an fma). Guards `returns_input` against false
positives on the GPU.

Expected: `correct` under both policies.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void near_identity(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = __fadd_rn(__fmul_rn(x[i], 1.00001f), 1e-7f);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.near_identity(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        return y
