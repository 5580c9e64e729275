"""Gold candidate (nvrtc backend) for KernelBench level1/19_ReLU.py.

ReLU, elementwise (1.6e9 elements): grid-stride loop with float4 loads/stores and 64-bit indices.
Device code is compiled by kernelmosaic.verify.nvrtc; forward only allocates and launches.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__global__ __launch_bounds__(256) void relu_f32(const float* __restrict__ x, float* __restrict__ y, long n) {
    const long tid = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long stride = (long)gridDim.x * blockDim.x;
    const bool vec = ((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(y)) & 15ull) == 0ull;
    long done = 0;
    if (vec) {
        const long n4 = n >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        float4* y4 = reinterpret_cast<float4*>(y);
        for (long i = tid; i < n4; i += stride) {
            float4 v = x4[i];
            v.x = v.x < 0.0f ? 0.0f : v.x;   // NaN passes through, as in torch.relu
            v.y = v.y < 0.0f ? 0.0f : v.y;
            v.z = v.z < 0.0f ? 0.0f : v.z;
            v.w = v.w < 0.0f ? 0.0f : v.w;
            y4[i] = v;
        }
        done = n4 << 2;
    }
    for (long i = done + tid; i < n; i += stride) {
        const float v = x[i];
        y[i] = v < 0.0f ? 0.0f : v;
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
        if n == 0:
            return y
        blocks = max(1, min((n // 4 + 255) // 256, 132 * 16))
        mod.relu_f32(grid=(blocks,), block=(256,), args=(x, y, n))
        return y
