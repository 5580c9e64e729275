import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# torch.var(x, dim=1) (unbiased) for a 2-D bf16 tensor: one warp per row, fp32 accumulation
# of shifted sums (8 loads in flight per lane) (shift = first element of the row) to avoid cancellation.
mod = nvrtc.compile(r"""
#include <cuda_bf16.h>

__device__ __forceinline__ void acc2(unsigned int u, float K, float& s1, float& s2) {
    float a = __uint_as_float(u << 16) - K;
    float b = __uint_as_float(u & 0xffff0000u) - K;
    s1 += a; s2 = fmaf(a, a, s2);
    s1 += b; s2 = fmaf(b, b, s2);
}

__device__ __forceinline__ void acc8(uint4 v, float K, float& s1, float& s2) {
    acc2(v.x, K, s1, s2); acc2(v.y, K, s1, s2); acc2(v.z, K, s1, s2); acc2(v.w, K, s1, s2);
}

__global__ void __launch_bounds__(256) var_rows_bf16(
        const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ out,
        long rows, long N, long vec_ok)
{
    const long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    if (N <= 0) {
        if (lane == 0) out[warp] = __float2bfloat16_rn(__int_as_float(0x7fc00000));
        return;
    }
    const unsigned short* xr = reinterpret_cast<const unsigned short*>(x) + warp * N;
    const float K = __uint_as_float(((unsigned int)xr[0]) << 16);
    float s1a = 0.f, s2a = 0.f, s1b = 0.f, s2b = 0.f;
    if (vec_ok) {
        const uint4* xv = reinterpret_cast<const uint4*>(xr);
        const long nv = N >> 3;
        long i = lane;
        // 8 independent 16-byte loads in flight per lane (a 4096-wide row is 2 iterations)
        for (; i + 224 < nv; i += 256) {
            uint4 v[8];
            #pragma unroll
            for (int u = 0; u < 8; ++u) v[u] = __ldcs(xv + i + 32 * u);
            #pragma unroll
            for (int u = 0; u < 8; u += 2) {
                acc8(v[u], K, s1a, s2a);
                acc8(v[u + 1], K, s1b, s2b);
            }
        }
        for (; i + 96 < nv; i += 128) {
            uint4 v0 = __ldcs(xv + i);
            uint4 v1 = __ldcs(xv + i + 32);
            uint4 v2 = __ldcs(xv + i + 64);
            uint4 v3 = __ldcs(xv + i + 96);
            acc8(v0, K, s1a, s2a);
            acc8(v1, K, s1b, s2b);
            acc8(v2, K, s1a, s2a);
            acc8(v3, K, s1b, s2b);
        }
        for (; i < nv; i += 32) {
            uint4 v0 = __ldcs(xv + i);
            acc8(v0, K, s1a, s2a);
        }
    } else {
        for (long i = lane; i < N; i += 32) {
            float a = __uint_as_float(((unsigned int)xr[i]) << 16) - K;
            s1a += a; s2a = fmaf(a, a, s2a);
        }
    }
    float s1 = s1a + s1b, s2 = s2a + s2b;
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        s1 += __shfl_xor_sync(0xffffffffu, s1, o);
        s2 += __shfl_xor_sync(0xffffffffu, s2, o);
    }
    if (lane == 0) {
        const float n = (float)N;
        float m2 = fmaxf(s2 - s1 * (s1 / n), 0.0f);
        float v = m2 / (n - 1.0f);   // N == 1 -> 0/0 = NaN, like torch
        out[warp] = __float2bfloat16_rn(v);
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows = x.shape[0]
        N = x.shape[1]
        out = torch.empty((rows,), dtype=x.dtype, device=x.device)
        if rows == 0:
            return out
        vec_ok = 1 if (N % 8 == 0 and x.data_ptr() % 16 == 0) else 0
        threads = 256
        warps_per_block = threads // 32
        blocks = (rows + warps_per_block - 1) // warps_per_block
        mod.var_rows_bf16(grid=(blocks,), block=(threads,), args=(x, out, rows, N, vec_ok))
        return out
