import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# sigmoid(x) = 1 / (1 + expf(-x)), fp32, same formula and accurate expf/IEEE division as torch.
# Memory-bound: 16-byte loads, 4 float4 per thread issued before any compute/store.
# Plain (default-cached) loads/stores instead of the streaming .cs hints of the previous
# version, which ran ~11% above eager (eager sits at the bandwidth floor).
_SRC = r"""
__device__ __forceinline__ float op_f(float x) {
    return 1.0f / (1.0f + expf(-x));
}

__device__ __forceinline__ float4 op_v(float4 v) {
    float4 r;
    r.x = op_f(v.x); r.y = op_f(v.y);
    r.z = op_f(v.z); r.w = op_f(v.w);
    return r;
}

// Each block of 256 threads handles 1024 float4; each thread 4 float4 (strided by 256).
// Tail (< 4 floats) by block 0. Unaligned pointers fall back to scalar accesses.
__global__ void __launch_bounds__(256) sigmoid_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    const long n4 = n >> 2;
    const long base = (long)blockIdx.x * 1024L + threadIdx.x;
    const bool aligned = ((((unsigned long long)x) | ((unsigned long long)y)) & 15ULL) == 0ULL;
    if (aligned) {
        const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);
        float4* __restrict__ y4 = reinterpret_cast<float4*>(y);
        float4 v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long i = base + k * 256L;
            if (i < n4) v[k] = x4[i];
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long i = base + k * 256L;
            if (i < n4) y4[i] = op_v(v[k]);
        }
    } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long i = base + k * 256L;
            if (i < n4) {
#pragma unroll
                for (int j = 0; j < 4; ++j) y[4 * i + j] = op_f(x[4 * i + j]);
            }
        }
    }
    if (blockIdx.x == 0) {
        const long t = (n4 << 2) + threadIdx.x;
        if (t < n) y[t] = op_f(x[t]);
    }
}
"""

_mod = nvrtc.compile(_SRC)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        if n > 0:
            blocks = max(1, ((n >> 2) + 1023) // 1024)
            _mod.sigmoid_kernel(grid=(blocks,), block=(256,), args=(x, y, n))
        return y
