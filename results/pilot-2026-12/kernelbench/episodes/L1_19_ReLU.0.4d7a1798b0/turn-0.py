import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
__device__ __forceinline__ float op_f(float x, float alpha) {
    // NaN propagates like torch.relu
    return x > 0.f ? x : (x == x ? 0.f : x);
}

__device__ __forceinline__ float4 op_v(float4 v, float alpha) {
    float4 r;
    r.x = op_f(v.x, alpha); r.y = op_f(v.y, alpha);
    r.z = op_f(v.z, alpha); r.w = op_f(v.w, alpha);
    return r;
}

// Each block of 256 threads handles 1024 float4 (4096 floats); each thread 4 float4,
// loads issued before compute for memory-level parallelism. Tail (<4 floats) by block 0.
__global__ void ew_kernel(const float* __restrict__ x, float* __restrict__ y, long n, float alpha) {
    const long n4 = n >> 2;
    const long base = (long)blockIdx.x * 1024L + threadIdx.x;
    const bool aligned = ((((unsigned long long)x) | ((unsigned long long)y)) & 15ULL) == 0ULL;
    if (aligned) {
        const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);
        float4* __restrict__ y4 = reinterpret_cast<float4*>(y);
        float4 v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            long i = base + k * 256L;
            if (i < n4) v[k] = __ldcs(x4 + i);
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            long i = base + k * 256L;
            if (i < n4) __stcs(y4 + i, op_v(v[k], alpha));
        }
    } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            long i = base + k * 256L;
            if (i < n4) {
#pragma unroll
                for (int j = 0; j < 4; ++j) y[4 * i + j] = op_f(x[4 * i + j], alpha);
            }
        }
    }
    if (blockIdx.x == 0) {
        long t = (n4 << 2) + threadIdx.x;
        if (t < n) y[t] = op_f(x[t], alpha);
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
            _mod.ew_kernel(grid=(blocks,), block=(256,), args=(x, y, n, 0.0))
        return y
