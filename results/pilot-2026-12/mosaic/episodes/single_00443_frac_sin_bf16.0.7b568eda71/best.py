import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
#include <cuda_bf16.h>

__device__ __forceinline__ float bf_lo(unsigned int w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float bf_hi(unsigned int w) { return __uint_as_float(w & 0xffff0000u); }

// Mirrors the reference's bf16 rounding: t = bf16(0.57f*x); s = bf16(sinf(t)); y = bf16(s*x)
__device__ __forceinline__ float frac_sin_f(float x) {
    float t = __bfloat162float(__float2bfloat16_rn(0.57f * x));
    float s = __bfloat162float(__float2bfloat16_rn(sinf(t)));
    return s * x;
}

__device__ __forceinline__ unsigned int pack2(float a, float b) {
    unsigned int lo = (unsigned int)__bfloat16_as_ushort(__float2bfloat16_rn(a));
    unsigned int hi = (unsigned int)__bfloat16_as_ushort(__float2bfloat16_rn(b));
    return lo | (hi << 16);
}

__device__ __forceinline__ unsigned int proc2(unsigned int w) {
    return pack2(frac_sin_f(bf_lo(w)), frac_sin_f(bf_hi(w)));
}

// Vectorized: 8 bf16 per uint4; each thread handles up to 2 vectors.
__global__ void frac_sin_vec(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, long nvec) {
    const uint4* __restrict__ xv = reinterpret_cast<const uint4*>(x);
    uint4* __restrict__ yv = reinterpret_cast<uint4*>(y);
    long base = (long)blockIdx.x * (blockDim.x * 2L) + threadIdx.x;
    long i0 = base, i1 = base + blockDim.x;
    uint4 a, b;
    if (i0 < nvec) a = __ldcs(xv + i0);
    if (i1 < nvec) b = __ldcs(xv + i1);
    if (i0 < nvec) {
        uint4 r; r.x = proc2(a.x); r.y = proc2(a.y); r.z = proc2(a.z); r.w = proc2(a.w);
        __stcs(yv + i0, r);
    }
    if (i1 < nvec) {
        uint4 r; r.x = proc2(b.x); r.y = proc2(b.y); r.z = proc2(b.z); r.w = proc2(b.w);
        __stcs(yv + i1, r);
    }
}

// Scalar path for the tail (or unaligned buffers): elements [start, n)
__global__ void frac_sin_scalar(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, long start, long n) {
    long i = start + (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = __bfloat162float(x[i]);
        y[i] = __float2bfloat16_rn(frac_sin_f(v));
    }
}
"""

mod = nvrtc.compile(_SRC)

_THREADS = 256


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        if n == 0:
            return y
        aligned = (x.data_ptr() % 16 == 0) and (y.data_ptr() % 16 == 0)
        start = 0
        if aligned:
            nvec = n // 8
            if nvec > 0:
                per_block = _THREADS * 2
                grid = (nvec + per_block - 1) // per_block
                mod.frac_sin_vec(grid=(grid,), block=(_THREADS,), args=(x, y, nvec))
            start = nvec * 8
        rem = n - start
        if rem > 0:
            grid = (rem + _THREADS - 1) // _THREADS
            mod.frac_sin_scalar(grid=(grid,), block=(_THREADS,), args=(x, y, start, n))
        return y
