"""Gold candidate (nvrtc backend) for KernelBench level1/88_MinGPTNewGelu.py.

tanh-approximation GELU (MinGPT), elementwise: grid-stride float4 loop, tanhf in fp32.
Device code is compiled by kernelmosaic.verify.nvrtc; forward only allocates and launches.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__device__ __forceinline__ float new_gelu(float x) {
    const float k = 0.7978845608028654f;   // sqrt(2 / pi)
    const float inner = k * (x + 0.044715f * (x * x * x));
    return 0.5f * x * (1.0f + tanhf(inner));
}

__global__ __launch_bounds__(256) void new_gelu_f32(const float* __restrict__ x, float* __restrict__ y, long n) {
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
            v.x = new_gelu(v.x); v.y = new_gelu(v.y); v.z = new_gelu(v.z); v.w = new_gelu(v.w);
            y4[i] = v;
        }
        done = n4 << 2;
    }
    for (long i = done + tid; i < n; i += stride) y[i] = new_gelu(x[i]);
}
"""

mod = nvrtc.compile(SRC)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        if n == 0:
            return y
        blocks = max(1, min((n // 4 + 255) // 256, 132 * 16))
        mod.new_gelu_f32(grid=(blocks,), block=(256,), args=(x, y, n))
        return y
