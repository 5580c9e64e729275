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

// One warp per row; row length H with H % 8 == 0 and H/8 <= 32*MAXV (row cached in registers).
#define MAXV 4
__global__ void rms_vec(const __half* __restrict__ x, const __half* __restrict__ w, __half* __restrict__ y,
                        long rows, long H, float inv_h, float eps) {
    const int lane = threadIdx.x & 31;
    long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const long nv = H >> 3;
    const uint4* __restrict__ xr = reinterpret_cast<const uint4*>(x + row * H);
    const uint4* __restrict__ wv = reinterpret_cast<const uint4*>(w);
    uint4* __restrict__ yr = reinterpret_cast<uint4*>(y + row * H);
    uint4 v[MAXV];
    float ss = 0.f;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        long idx = lane + 32L * k;
        if (idx < nv) {
            v[k] = __ldcs(xr + idx);
            float f[8]; h8_to_f(v[k], f);
            #pragma unroll
            for (int j = 0; j < 8; ++j) ss = fmaf(f[j], f[j], ss);
        }
    }
    ss = warp_sum(ss);
    float r = rsqrtf(ss * inv_h + eps);
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        long idx = lane + 32L * k;
        if (idx < nv) {
            float f[8], g[8]; h8_to_f(v[k], f);
            uint4 wu = __ldg(wv + idx);
            h8_to_f(wu, g);
            uint4 o;
            __half2* oh = reinterpret_cast<__half2*>(&o);
            #pragma unroll
            for (int j = 0; j < 4; ++j) oh[j] = __floats2half2_rn(f[2*j] * r * g[2*j], f[2*j+1] * r * g[2*j+1]);
            __stcs(yr + idx, o);
        }
    }
}

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
        grid = ((rows + _WARPS - 1) // _WARPS,)
        inv_h = 1.0 / H
        vec_ok = (H % 8 == 0) and (H // 8 <= 32 * 4) and x.data_ptr() % 16 == 0 \
            and y.data_ptr() % 16 == 0 and w.data_ptr() % 16 == 0
        if vec_ok:
            mod.rms_vec(grid=grid, block=(32 * _WARPS,), args=(x, w, y, rows, H, inv_h, 1e-6))
        else:
            mod.rms_generic(grid=grid, block=(32 * _WARPS,), args=(x, w, y, rows, H, inv_h, 1e-6))
        return y
