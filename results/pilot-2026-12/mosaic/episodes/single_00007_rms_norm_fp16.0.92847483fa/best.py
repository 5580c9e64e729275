import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
#include <cuda_fp16.h>

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ void h8_to_f(const uint4& u, float* f) {
    const __half2* h = reinterpret_cast<const __half2*>(&u);
    #pragma unroll
    for (int i = 0; i < 4; ++i) { float2 t = __half22float2(h[i]); f[2*i] = t.x; f[2*i+1] = t.y; }
}

__device__ __forceinline__ float sumsq8(const uint4& u) {
    float f[8]; h8_to_f(u, f);
    float a = 0.f, b = 0.f;
    #pragma unroll
    for (int j = 0; j < 8; j += 2) { a = fmaf(f[j], f[j], a); b = fmaf(f[j+1], f[j+1], b); }
    return a + b;
}

__device__ __forceinline__ uint4 scale8(const uint4& u, const uint4& wu, float r) {
    float f[8], g[8]; h8_to_f(u, f); h8_to_f(wu, g);
    uint4 o;
    __half2* oh = reinterpret_cast<__half2*>(&o);
    #pragma unroll
    for (int j = 0; j < 4; ++j) oh[j] = __floats2half2_rn(f[2*j] * r * g[2*j], f[2*j+1] * r * g[2*j+1]);
    return o;
}

// One warp handles two consecutive rows at once (two independent load/reduce/store chains for ILP).
// Rows have H % 8 == 0 and H/8 <= 32*MAXV and are cached in registers.
template <int MAXV>
__device__ __forceinline__ void rms_rows2(const __half* __restrict__ x, const __half* __restrict__ w, __half* __restrict__ y,
                                          long rows, long H, float inv_h, float eps) {
    const int lane = threadIdx.x & 31;
    const long row0 = 2L * ((long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5));
    if (row0 >= rows) return;
    const bool has1 = (row0 + 1) < rows;
    const long nv = H >> 3;
    const uint4* __restrict__ x0 = reinterpret_cast<const uint4*>(x + row0 * H);
    const uint4* __restrict__ x1 = x0 + nv;
    const uint4* __restrict__ wv = reinterpret_cast<const uint4*>(w);
    uint4 a[MAXV], b[MAXV];
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        long idx = lane + 32L * k;
        if (idx < nv) {
            a[k] = __ldcs(x0 + idx);
            if (has1) b[k] = __ldcs(x1 + idx);
        }
    }
    float s0 = 0.f, s1 = 0.f;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        long idx = lane + 32L * k;
        if (idx < nv) {
            s0 += sumsq8(a[k]);
            if (has1) s1 += sumsq8(b[k]);
        }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        s0 += __shfl_xor_sync(0xffffffffu, s0, o);
        s1 += __shfl_xor_sync(0xffffffffu, s1, o);
    }
    const float r0 = rsqrtf(s0 * inv_h + eps);
    const float r1 = rsqrtf(s1 * inv_h + eps);
    uint4* __restrict__ y0 = reinterpret_cast<uint4*>(y + row0 * H);
    uint4* __restrict__ y1 = y0 + nv;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        long idx = lane + 32L * k;
        if (idx < nv) {
            const uint4 wu = __ldg(wv + idx);
            __stcs(y0 + idx, scale8(a[k], wu, r0));
            if (has1) __stcs(y1 + idx, scale8(b[k], wu, r1));
        }
    }
}

__global__ void rms_vec1(const __half* __restrict__ x, const __half* __restrict__ w, __half* __restrict__ y,
                         long rows, long H, float inv_h, float eps) { rms_rows2<1>(x, w, y, rows, H, inv_h, eps); }
__global__ void rms_vec2(const __half* __restrict__ x, const __half* __restrict__ w, __half* __restrict__ y,
                         long rows, long H, float inv_h, float eps) { rms_rows2<2>(x, w, y, rows, H, inv_h, eps); }
__global__ void rms_vec3(const __half* __restrict__ x, const __half* __restrict__ w, __half* __restrict__ y,
                         long rows, long H, float inv_h, float eps) { rms_rows2<3>(x, w, y, rows, H, inv_h, eps); }
__global__ void rms_vec4(const __half* __restrict__ x, const __half* __restrict__ w, __half* __restrict__ y,
                         long rows, long H, float inv_h, float eps) { rms_rows2<4>(x, w, y, rows, H, inv_h, eps); }

// Generic: one warp per row, any H, scalar accesses (two passes over the row).
__global__ void rms_generic(const __half* __restrict__ x, const __half* __restrict__ w, __half* __restrict__ y,
                            long rows, long H, float inv_h, float eps) {
    const int lane = threadIdx.x & 31;
    long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const __half* xr = x + row * H;
    __half* yr = y + row * H;
    float ss = 0.f;
    for (long i = lane; i < H; i += 32) { float f = __half2float(xr[i]); ss = fmaf(f, f, ss); }
    ss = warp_sum(ss);
    float r = rsqrtf(ss * inv_h + eps);
    for (long i = lane; i < H; i += 32) {
        float f = __half2float(xr[i]);
        yr[i] = __float2half_rn(f * r * __half2float(w[i]));
    }
}
"""

mod = nvrtc.compile(_SRC)

_WARPS = 8


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.rms_weight = nn.Parameter(torch.ones(768) + 0.1 * torch.randn(768))
        self.to(torch.float16)

    def forward(self, x):
        x = x.contiguous()
        w = self.rms_weight.contiguous()
        H = x.shape[-1]
        y = torch.empty_like(x)
        n = x.numel()
        if n == 0:
            return y
        rows = n // H
        inv_h = 1.0 / H
        vec_ok = (H % 8 == 0) and (H // 8 <= 32 * 4) and x.data_ptr() % 16 == 0 \
            and y.data_ptr() % 16 == 0 and w.data_ptr() % 16 == 0
        if vec_ok:
            per_lane = (H // 8 + 31) // 32
            k = (mod.rms_vec1, mod.rms_vec2, mod.rms_vec3, mod.rms_vec4)[per_lane - 1]
            pairs = (rows + 1) // 2
            grid = ((pairs + _WARPS - 1) // _WARPS,)
            k(grid=grid, block=(32 * _WARPS,), args=(x, w, y, rows, H, inv_h, 1e-6))
        else:
            grid = ((rows + _WARPS - 1) // _WARPS,)
            mod.rms_generic(grid=grid, block=(32 * _WARPS,), args=(x, w, y, rows, H, inv_h, 1e-6))
        return y
