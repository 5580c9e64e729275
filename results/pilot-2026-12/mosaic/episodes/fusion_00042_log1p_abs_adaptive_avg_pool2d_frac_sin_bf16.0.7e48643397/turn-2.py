import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_bf16.h>

// log1p(|x|) -> adaptive_avg_pool2d(.., 2) -> sin(2.76*m)*m
// One block per (n, c) plane. Sums are accumulated as log2(1+|x|) and scaled by ln2 at the end.

__device__ __forceinline__ void block_reduce4(float (&s)[4], float (*red)[4]) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s[q] += __shfl_xor_sync(0xffffffffu, s[q], o);
    }
    if (lane == 0) {
#pragma unroll
        for (int q = 0; q < 4; ++q) red[warp][q] = s[q];
    }
    __syncthreads();
    if (threadIdx.x < 4) {
        float t = 0.f;
        for (int w = 0; w < nw; ++w) t += red[w][threadIdx.x];
        red[0][threadIdx.x] = t;
    }
}

__device__ __forceinline__ void write_out(__nv_bfloat16* __restrict__ y, long plane, float total,
                                          int q, int H, int W) {
    const int i = q >> 1, j = q & 1;
    const int rs = (i * H) / 2, re = ((i + 1) * H + 1) / 2;
    const int cs = (j * W) / 2, ce = ((j + 1) * W + 1) / 2;
    const float cnt = (float)((re - rs) * (ce - cs));
    const float m = total * 0.69314718055994530942f / cnt;
    const float r = sinf(2.76f * m) * m;
    y[plane * 4 + q] = __float2bfloat16_rn(r);
}

__device__ __forceinline__ float lg2_fast(float v) {
    float r;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}
__device__ __forceinline__ float op1(unsigned int f32bits) {
    // f32bits: fp32 bit pattern of a bf16 value
    return 1.0f + fabsf(__uint_as_float(f32bits));
}
__device__ __forceinline__ float l2p(unsigned int f32bits) {
    return lg2_fast(op1(f32bits));
}

// Vector path: W % 8 == 0, 16-byte aligned planes.
__global__ void __launch_bounds__(128) fused_vec(const __nv_bfloat16* __restrict__ x,
                                                 __nv_bfloat16* __restrict__ y,
                                                 long planes, int H, int W) {
    __shared__ float red[32][4];
    const long plane = blockIdx.x;
    const int Wv = W >> 3;
    const int nv = H * Wv;
    const uint4* xp = reinterpret_cast<const uint4*>(x) + plane * (long)nv;
    const int re0 = (H + 1) >> 1, rs1 = H >> 1;
    const int ce0 = (W + 1) >> 1;
    const float invWv = 1.0f / (float)Wv;

    float s[4] = {0.f, 0.f, 0.f, 0.f};
    const int U = 4;
    for (int base = 0; base < nv; base += U * blockDim.x) {
        uint4 raw[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            int i = base + u * blockDim.x + threadIdx.x;
            if (i < nv) raw[u] = __ldcs(xp + i);
            else raw[u] = make_uint4(0u, 0u, 0u, 0u);
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            int i = base + u * blockDim.x + threadIdx.x;
            if (i < nv) {
                int h = (int)((float)i * invWv);
                int wv = i - h * Wv;
                if (wv >= Wv) { h += 1; wv -= Wv; }
                if (wv < 0) { h -= 1; wv += Wv; }
                const int w0 = wv << 3;
                // W is even here, so column bins split at ce0 == cs1 without overlap:
                // elements t < n0 belong to column bin 0, the rest to column bin 1.
                const int n0 = min(max(ce0 - w0, 0), 8);
                float f[8];
                f[0] = op1(raw[u].x << 16); f[1] = op1(raw[u].x & 0xffff0000u);
                f[2] = op1(raw[u].y << 16); f[3] = op1(raw[u].y & 0xffff0000u);
                f[4] = op1(raw[u].z << 16); f[5] = op1(raw[u].z & 0xffff0000u);
                f[6] = op1(raw[u].w << 16); f[7] = op1(raw[u].w & 0xffff0000u);
                // sum of log2 = log2 of product (factors >= 1, so no underflow);
                // prefix product of the first n0 factors gives the column-0 part.
                float P = 1.f, Psel = 1.f;
#pragma unroll
                for (int t = 0; t < 8; ++t) {
                    P *= f[t];
                    Psel = (t + 1 == n0) ? P : Psel;
                }
                float tot, c0;
                if (P < 3.0e38f) {
                    tot = lg2_fast(P);
                    c0 = lg2_fast(Psel);
                } else {
                    // huge / inf / NaN inputs: exact per-element path
                    tot = 0.f; c0 = 0.f;
#pragma unroll
                    for (int t = 0; t < 8; ++t) {
                        const float g = lg2_fast(f[t]);
                        tot += g;
                        c0 += (t < n0) ? g : 0.f;
                    }
                }
                const float c1 = tot - c0;
                if (h < re0) { s[0] += c0; s[1] += c1; }
                if (h >= rs1) { s[2] += c0; s[3] += c1; }
            }
        }
    }
    block_reduce4(s, red);
    if (threadIdx.x < 4) write_out(y, plane, red[0][threadIdx.x], threadIdx.x, H, W);
}

// Generic path: any H, W.
__global__ void __launch_bounds__(128) fused_scalar(const __nv_bfloat16* __restrict__ x,
                                                    __nv_bfloat16* __restrict__ y,
                                                    long planes, int H, int W) {
    __shared__ float red[32][4];
    const long plane = blockIdx.x;
    const long n = (long)H * W;
    const unsigned short* xp = reinterpret_cast<const unsigned short*>(x) + plane * n;
    const int re0 = (H + 1) >> 1, rs1 = H >> 1;
    const int ce0 = (W + 1) >> 1, cs1 = W >> 1;
    float s[4] = {0.f, 0.f, 0.f, 0.f};
    for (long i = threadIdx.x; i < n; i += blockDim.x) {
        const int h = (int)(i / W);
        const int w = (int)(i - (long)h * W);
        const float f = l2p(((unsigned int)xp[i]) << 16);
        const float c0 = (w < ce0) ? f : 0.f;
        const float c1 = (w >= cs1) ? f : 0.f;
        if (h < re0) { s[0] += c0; s[1] += c1; }
        if (h >= rs1) { s[2] += c0; s[3] += c1; }
    }
    block_reduce4(s, red);
    if (threadIdx.x < 4) write_out(y, plane, red[0][threadIdx.x], threadIdx.x, H, W);
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
        if W % 8 == 0 and x.data_ptr() % 16 == 0 and (H * W) // 8 < (1 << 22):
            mod.fused_vec(grid=(planes,), block=(128,), args=(x, y, planes, H, W))
        else:
            mod.fused_scalar(grid=(planes,), block=(128,), args=(x, y, planes, H, W))
        return y
