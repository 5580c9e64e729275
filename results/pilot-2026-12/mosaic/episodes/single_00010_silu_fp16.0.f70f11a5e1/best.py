import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_fp16.h>

#define UNROLL 4

__device__ __forceinline__ float silu_f(float v) {
    // x * sigmoid(x); fast reciprocal division is ample for a float16 result.
    // For v < -88, 1 + exp(-v) = inf and __fdividef returns -0 (true value ~0).
    return __fdividef(v, 1.0f + __expf(-v));
}

__device__ __forceinline__ uint4 silu8(uint4 a) {
    __half2* h = reinterpret_cast<__half2*>(&a);
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
        float2 f = __half22float2(h[j]);
        h[j] = __floats2half2_rn(silu_f(f.x), silu_f(f.y));
    }
    return a;
}

// Each thread moves UNROLL independent 16-byte vectors (8 halves each): all
// loads are issued before any compute so 64 bytes per thread are in flight.
__global__ void silu_vec8(const __half* __restrict__ x, __half* __restrict__ y, long nvec) {
    const uint4* __restrict__ xv = reinterpret_cast<const uint4*>(x);
    uint4* __restrict__ yv = reinterpret_cast<uint4*>(y);
    long base = (long)blockIdx.x * (blockDim.x * UNROLL) + threadIdx.x;
    uint4 v[UNROLL];
    if (base + (UNROLL - 1) * (long)blockDim.x < nvec) {
        #pragma unroll
        for (int j = 0; j < UNROLL; ++j) v[j] = __ldg(xv + base + j * (long)blockDim.x);
        #pragma unroll
        for (int j = 0; j < UNROLL; ++j) yv[base + j * (long)blockDim.x] = silu8(v[j]);
    } else {
        #pragma unroll
        for (int j = 0; j < UNROLL; ++j) {
            long i = base + j * (long)blockDim.x;
            if (i < nvec) yv[i] = silu8(__ldg(xv + i));
        }
    }
}

// Scalar path for the tail (or unaligned data).
__global__ void silu_scalar(const __half* __restrict__ x, __half* __restrict__ y, long start, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = start + blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride) {
        float f = __half2float(x[i]);
        y[i] = __float2half_rn(silu_f(f));
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        if n == 0:
            return y
        threads = 256
        aligned = (x.data_ptr() % 16 == 0) and (y.data_ptr() % 16 == 0)
        nvec = n // 8 if aligned else 0
        if nvec > 0:
            per_block = threads * 4
            blocks = (nvec + per_block - 1) // per_block
            mod.silu_vec8(grid=(blocks,), block=(threads,), args=(x, y, nvec))
        start = nvec * 8
        rem = n - start
        if rem > 0:
            blocks = min((rem + threads - 1) // threads, 132 * 16)
            mod.silu_scalar(grid=(blocks,), block=(threads,), args=(x, y, start, n))
        return y
