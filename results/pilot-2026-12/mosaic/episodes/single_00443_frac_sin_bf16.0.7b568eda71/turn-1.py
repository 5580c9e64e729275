import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
#include <cuda_bf16.h>

__device__ __forceinline__ float bf_lo(unsigned int w) { return __uint_as_float(w << 16); }
__device__ __forceinline__ float bf_hi(unsigned int w) { return __uint_as_float(w & 0xffff0000u); }
__device__ __forceinline__ unsigned int pack2(float a, float b) {   // one cvt.rn.bf16x2.f32
    __nv_bfloat162 h = __floats2bfloat162_rn(a, b);                 // a -> low half, b -> high half
    return *reinterpret_cast<unsigned int*>(&h);
}

// sin in fp32: hardware MUFU.SIN (abs error ~2^-21.4 on [-pi, pi]) on the range the data lives in;
// exact libm sinf otherwise (rare, branch is warp-uniform in practice). The result is rounded to
// bf16 (2^-9 relative step) right after, like the reference, so the approximation is invisible
// except for an occasional 1-ulp rounding flip.
__device__ __forceinline__ float sin_f(float t) {
    float s;
    if (fabsf(t) <= 3.14159f) s = __sinf(t);
    else s = sinf(t);
    return s;
}

// Mirrors the reference's bf16 rounding: t = bf16(0.57f*x); s = bf16(sin(t)); y = bf16(s*x)
__device__ __forceinline__ unsigned int proc2(unsigned int w) {
    const float x0 = bf_lo(w), x1 = bf_hi(w);
    const unsigned int tw = pack2(0.57f * x0, 0.57f * x1);
    const unsigned int sw = pack2(sin_f(bf_lo(tw)), sin_f(bf_hi(tw)));
    return pack2(bf_lo(sw) * x0, bf_hi(sw) * x1);     // bf16*bf16 is exact in fp32: one rounding
}

// Vectorized: 8 bf16 per uint4; each thread handles 2 vectors (plain cached loads/stores).
__global__ void __launch_bounds__(256) frac_sin_vec(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, long nvec) {
    const uint4* __restrict__ xv = reinterpret_cast<const uint4*>(x);
    uint4* __restrict__ yv = reinterpret_cast<uint4*>(y);
    const long base = (long)blockIdx.x * (blockDim.x * 2L) + threadIdx.x;
    const long i0 = base, i1 = base + blockDim.x;
    uint4 a = make_uint4(0u, 0u, 0u, 0u), b = make_uint4(0u, 0u, 0u, 0u);
    if (i0 < nvec) a = xv[i0];
    if (i1 < nvec) b = xv[i1];
    if (i0 < nvec) {
        uint4 r; r.x = proc2(a.x); r.y = proc2(a.y); r.z = proc2(a.z); r.w = proc2(a.w);
        yv[i0] = r;
    }
    if (i1 < nvec) {
        uint4 r; r.x = proc2(b.x); r.y = proc2(b.y); r.z = proc2(b.z); r.w = proc2(b.w);
        yv[i1] = r;
    }
}

// Scalar path for the tail (or unaligned buffers): elements [start, n)
__global__ void frac_sin_scalar(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, long start, long n) {
    long i = start + (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = __bfloat162float(x[i]);
        const float t = __bfloat162float(__float2bfloat16_rn(0.57f * v));
        const float s = __bfloat162float(__float2bfloat16_rn(sin_f(t)));
        y[i] = __float2bfloat16_rn(s * v);
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
