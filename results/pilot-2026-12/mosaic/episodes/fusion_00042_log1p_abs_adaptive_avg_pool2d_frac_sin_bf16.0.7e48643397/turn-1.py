import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_bf16.h>

// log1p(|x|) -> adaptive_avg_pool2d(.., 2) -> sin(2.76*m)*m
// One WARP per (n, c) plane (no block barriers); 8 planes per 256-thread block.
// Sums are accumulated as log2(1+|x|) and scaled by ln2 once at the end.

__device__ __forceinline__ float l2p(unsigned int f32bits) {
    return __log2f(1.0f + fabsf(__uint_as_float(f32bits)));
}

__device__ __forceinline__ void warp_finish(float (&s)[4], __nv_bfloat16* __restrict__ y, long plane,
                                            int H, int W, int lane) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s[q] += __shfl_xor_sync(0xffffffffu, s[q], o);
    }
    if (lane < 4) {
        const int i = lane >> 1, j = lane & 1;
        const float tot = (lane == 0) ? s[0] : (lane == 1) ? s[1] : (lane == 2) ? s[2] : s[3];
        const int rs = (i * H) / 2, re = ((i + 1) * H + 1) / 2;
        const int cs = (j * W) / 2, ce = ((j + 1) * W + 1) / 2;
        const float cnt = (float)((re - rs) * (ce - cs));
        const float m = tot * 0.69314718055994530942f / cnt;
        y[plane * 4 + lane] = __float2bfloat16_rn(sinf(2.76f * m) * m);
    }
}

// Vector path: W % 8 == 0 (planes are then 16-byte aligned when the base is).
__global__ void __launch_bounds__(256) fused_vec(const __nv_bfloat16* __restrict__ x,
                                                 __nv_bfloat16* __restrict__ y,
                                                 long planes, int H, int W) {
    const int lane = threadIdx.x & 31;
    const long plane = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (plane >= planes) return;
    const int Wv = W >> 3;
    const int nv = H * Wv;
    const uint4* xp = reinterpret_cast<const uint4*>(x) + plane * (long)nv;
    const int re0 = (H + 1) >> 1, rs1 = H >> 1;
    const int ce0 = (W + 1) >> 1, cs1 = W >> 1;
    const bool weven = (W & 1) == 0;   // then column bins do not overlap: c1 = tot - c0
    const float invWv = 1.0f / (float)Wv;

    float s[4] = {0.f, 0.f, 0.f, 0.f};
    const int U = 8;
    for (int base = 0; base < nv; base += 32 * U) {
        uint4 raw[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int i = base + u * 32 + lane;
            if (i < nv) raw[u] = __ldcs(xp + i);
            else raw[u] = make_uint4(0u, 0u, 0u, 0u);
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int i = base + u * 32 + lane;
            if (i < nv) {
                int h = (int)((float)i * invWv);
                int wv = i - h * Wv;
                if (wv >= Wv) { h += 1; wv -= Wv; }
                if (wv < 0) { h -= 1; wv += Wv; }
                const int w0 = wv << 3;
                const int n0 = min(max(ce0 - w0, 0), 8);   // elements t < n0 are in column bin 0
                const int m1 = min(max(cs1 - w0, 0), 8);   // elements t >= m1 are in column bin 1
                float f[8];
                f[0] = l2p(raw[u].x << 16); f[1] = l2p(raw[u].x & 0xffff0000u);
                f[2] = l2p(raw[u].y << 16); f[3] = l2p(raw[u].y & 0xffff0000u);
                f[4] = l2p(raw[u].z << 16); f[5] = l2p(raw[u].z & 0xffff0000u);
                f[6] = l2p(raw[u].w << 16); f[7] = l2p(raw[u].w & 0xffff0000u);
                float tot = 0.f, c0 = 0.f;
#pragma unroll
                for (int t = 0; t < 8; ++t) {
                    tot += f[t];
                    c0 += (t < n0) ? f[t] : 0.f;
                }
                float c1;
                if (weven) {
                    c1 = tot - c0;
                } else {
                    c1 = 0.f;
#pragma unroll
                    for (int t = 0; t < 8; ++t) c1 += (t >= m1) ? f[t] : 0.f;
                }
                if (h < re0) { s[0] += c0; s[1] += c1; }
                if (h >= rs1) { s[2] += c0; s[3] += c1; }
            }
        }
    }
    warp_finish(s, y, plane, H, W, lane);
}

// Generic path: any H, W, alignment. One warp per plane.
__global__ void __launch_bounds__(256) fused_scalar(const __nv_bfloat16* __restrict__ x,
                                                    __nv_bfloat16* __restrict__ y,
                                                    long planes, int H, int W) {
    const int lane = threadIdx.x & 31;
    const long plane = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (plane >= planes) return;
    const long n = (long)H * W;
    const unsigned short* xp = reinterpret_cast<const unsigned short*>(x) + plane * n;
    const int re0 = (H + 1) >> 1, rs1 = H >> 1;
    const int ce0 = (W + 1) >> 1, cs1 = W >> 1;
    float s[4] = {0.f, 0.f, 0.f, 0.f};
    for (long i = lane; i < n; i += 32) {
        const int h = (int)(i / W);
        const int w = (int)(i - (long)h * W);
        const float f = l2p(((unsigned int)xp[i]) << 16);
        const float c0 = (w < ce0) ? f : 0.f;
        const float c1 = (w >= cs1) ? f : 0.f;
        if (h < re0) { s[0] += c0; s[1] += c1; }
        if (h >= rs1) { s[2] += c0; s[3] += c1; }
    }
    warp_finish(s, y, plane, H, W, lane);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        H, W = x.shape[-2], x.shape[-1]
        lead = x.shape[:-2]
        y = torch.empty(*lead, 2, 2, dtype=x.dtype, device=x.device)
        if H * W == 0:
            return y
        planes = x.numel() // (H * W)
        if planes == 0:
            return y
        grid = ((planes + 7) // 8,)
        if W % 8 == 0 and x.data_ptr() % 16 == 0 and (H * W) // 8 < (1 << 22):
            mod.fused_vec(grid=grid, block=(256,), args=(x, y, planes, H, W))
        else:
            mod.fused_scalar(grid=grid, block=(256,), args=(x, y, planes, H, W))
        return y
