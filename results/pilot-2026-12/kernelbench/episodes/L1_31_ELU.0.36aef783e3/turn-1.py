import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
__device__ __forceinline__ float op_f(float x, float alpha) {
    return x > 0.f ? x : alpha * expm1f(x);
}

// Exact ELU on a float4; the expm1f path only runs when one of the 4 values is <= 0
// (or NaN-free negative). NaN: x > 0 is false and x <= 0 is false -> returns x (NaN), same as op_f.
__device__ __forceinline__ float4 op_v(float4 v, float alpha) {
    const bool any_neg = (v.x <= 0.f) | (v.y <= 0.f) | (v.z <= 0.f) | (v.w <= 0.f);
    if (any_neg) {
        v.x = op_f(v.x, alpha); v.y = op_f(v.y, alpha);
        v.z = op_f(v.z, alpha); v.w = op_f(v.w, alpha);
    }
    return v;
}

// One-shot (non-persistent) grid like PyTorch's elementwise path: each block of 256 threads owns
// 512 contiguous float4 (2048 floats); each thread issues both 16-byte loads before computing.
// Plain read-only loads and plain stores (no streaming cache hints). Tail (<4 floats) by block 0.
__global__ void __launch_bounds__(256) ew_kernel(const float* __restrict__ x, float* __restrict__ y, long n, float alpha) {
    const long n4 = n >> 2;
    const long base = (long)blockIdx.x * 512L + threadIdx.x;
    const bool aligned = ((((unsigned long long)x) | ((unsigned long long)y)) & 15ULL) == 0ULL;
    if (aligned) {
        const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);
        float4* __restrict__ y4 = reinterpret_cast<float4*>(y);
        float4 v[2];
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const long i = base + k * 256L;
            if (i < n4) v[k] = __ldg(x4 + i);
        }
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const long i = base + k * 256L;
            if (i < n4) y4[i] = op_v(v[k], alpha);
        }
    } else {
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const long i = base + k * 256L;
            if (i < n4) {
#pragma unroll
                for (int j = 0; j < 4; ++j) y[4 * i + j] = op_f(x[4 * i + j], alpha);
            }
        }
    }
    if (blockIdx.x == 0) {
        const long t = (n4 << 2) + threadIdx.x;
        if (t < n) y[t] = op_f(x[t], alpha);
    }
}
"""

_mod = nvrtc.compile(_SRC)


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        if n > 0:
            blocks = max(1, ((n >> 2) + 511) // 512)
            _mod.ew_kernel(grid=(blocks,), block=(256,), args=(x, y, n, float(self.alpha)))
        return y
