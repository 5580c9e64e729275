import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# torch.median(x, dim=-1).values for fp16 (lower median: the k = (N-1)//2 smallest).
# One warp per row. The row is held in registers as packed half2 (64 halves per lane, rows up
# to 2048); the median is found by a 16-step binary search over the order-preserving 16-bit key
# space: t = largest key with count(x < value(t)) <= k, which is exactly the k-th smallest.
# Each step counts with packed half2 compares (HSET2 + HADD2, exact small integers) and a warp
# butterfly sum: no shared memory, no atomics, no __syncthreads. Padding lanes hold NaN, which
# never compares less. A NaN in the row gives NaN (like torch.median).
mod = nvrtc.compile(r"""
#include <cuda_fp16.h>
#define KPL 64          // halves per lane kept in registers
#define WPL (KPL / 2)   // packed half2 words per lane
#define ROWS_PER_BLOCK 4

__device__ __forceinline__ unsigned int val_of(unsigned int k) {
    // inverse of the monotone key map (key = u ^ (sign ? 0xffff : 0x8000))
    return (k & 0x8000u) ? (k & 0x7fffu) : ((~k) & 0xffffu);
}
__device__ __forceinline__ int has_nan_pair(unsigned int w) {
    return ((w & 0x7fffu) > 0x7c00u) | (((w >> 16) & 0x7fffu) > 0x7c00u);
}
__device__ __forceinline__ unsigned int warp_sum(unsigned int v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ __forceinline__ __half2 bits2h2(unsigned int w) {
    __half2 h;
    *reinterpret_cast<unsigned int*>(&h) = w;
    return h;
}

// rows with N <= 32 * KPL: whole row in registers
__global__ void __launch_bounds__(128) median_warp_regs(
        const __half* __restrict__ xh, __half* __restrict__ outh,
        long rows, long N, int vec)
{
    const unsigned short* __restrict__ x = reinterpret_cast<const unsigned short*>(xh);
    unsigned short* __restrict__ out = reinterpret_cast<unsigned short*>(outh);
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * ROWS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;                      // warp-uniform
    const unsigned short* xr = x + row * N;
    const unsigned int NANPAIR = 0x7e007e00u;

    unsigned int w[WPL];
    int nanf = 0;
    if (vec) {
        // N % 8 == 0 and 16-byte aligned rows: one uint4 (8 halves) per load
        #pragma unroll
        for (int j = 0; j < KPL / 8; ++j) {
            const long e = ((long)j * 32 + lane) * 8;
            uint4 q = make_uint4(NANPAIR, NANPAIR, NANPAIR, NANPAIR);
            if (e < N) {
                q = __ldg(reinterpret_cast<const uint4*>(xr + e));
                nanf |= has_nan_pair(q.x) | has_nan_pair(q.y) | has_nan_pair(q.z) | has_nan_pair(q.w);
            }
            w[4 * j + 0] = q.x; w[4 * j + 1] = q.y; w[4 * j + 2] = q.z; w[4 * j + 3] = q.w;
        }
    } else {
        #pragma unroll
        for (int j = 0; j < KPL / 8; ++j) {
            const long e = ((long)j * 32 + lane) * 8;
            #pragma unroll
            for (int p = 0; p < 4; ++p) {
                unsigned int lo = 0x7e00u, hi = 0x7e00u;
                const long i0 = e + 2 * p;
                if (i0 < N) {
                    lo = __ldg(xr + i0);
                    nanf |= (lo & 0x7fffu) > 0x7c00u;
                }
                if (i0 + 1 < N) {
                    hi = __ldg(xr + i0 + 1);
                    nanf |= (hi & 0x7fffu) > 0x7c00u;
                }
                w[4 * j + p] = lo | (hi << 16);
            }
        }
    }
    if (__any_sync(0xffffffffu, nanf)) {
        if (lane == 0) out[row] = (unsigned short)0x7e00u;
        return;
    }

    const unsigned int k = (unsigned int)((N - 1) / 2);
    const unsigned int nall = (unsigned int)N;
    unsigned int t = 0u;
    #pragma unroll 1
    for (int bit = 15; bit >= 0; --bit) {
        const unsigned int c = t | (1u << bit);
        unsigned int cnt;
        if (c > 0xfc00u) {            // above +inf in key space: every (non-NaN) element is below
            cnt = nall;
        } else if (c < 0x03ffu) {     // below -inf in key space: nothing is below
            cnt = 0u;
        } else {
            const unsigned int vb = val_of(c);
            const __half2 thr = bits2h2(vb | (vb << 16));
            __half2 a0 = __float2half2_rn(0.f), a1 = a0, a2 = a0, a3 = a0;
            #pragma unroll
            for (int i = 0; i < WPL; i += 4) {
                a0 = __hadd2(a0, __hlt2(bits2h2(w[i + 0]), thr));
                a1 = __hadd2(a1, __hlt2(bits2h2(w[i + 1]), thr));
                a2 = __hadd2(a2, __hlt2(bits2h2(w[i + 2]), thr));
                a3 = __hadd2(a3, __hlt2(bits2h2(w[i + 3]), thr));
            }
            // each half lane holds an exact integer <= WPL / 4
            a0 = __hadd2(__hadd2(a0, a1), __hadd2(a2, a3));
            const unsigned int local = (unsigned int)(__low2float(a0) + __high2float(a0));
            cnt = warp_sum(local);
        }
        if (cnt <= k) t = c;
    }
    if (lane == 0) out[row] = (unsigned short)val_of(t);
}

// general rows (N > 32 * KPL): same search, re-reading the row (L1/L2 resident) each step
__global__ void __launch_bounds__(128) median_warp_global(
        const __half* __restrict__ xh, __half* __restrict__ outh,
        long rows, long N)
{
    const unsigned short* __restrict__ x = reinterpret_cast<const unsigned short*>(xh);
    unsigned short* __restrict__ out = reinterpret_cast<unsigned short*>(outh);
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * ROWS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;
    const unsigned short* xr = x + row * N;
    int nanf = 0;
    for (long i = lane; i < N; i += 32) nanf |= (xr[i] & 0x7fffu) > 0x7c00u;
    if (__any_sync(0xffffffffu, nanf)) {
        if (lane == 0) out[row] = (unsigned short)0x7e00u;
        return;
    }
    const unsigned long long k = (unsigned long long)((N - 1) / 2);
    unsigned int t = 0u;
    for (int bit = 15; bit >= 0; --bit) {
        const unsigned int c = t | (1u << bit);
        unsigned long long cnt;
        if (c > 0xfc00u) {
            cnt = (unsigned long long)N;
        } else if (c < 0x03ffu) {
            cnt = 0ull;
        } else {
            const unsigned int vb = val_of(c);
            const float thr = __half2float(__ushort_as_half((unsigned short)vb));
            unsigned int local = 0u;
            for (long i = lane; i < N; i += 32)
                local += (__half2float(__ushort_as_half(xr[i])) < thr) ? 1u : 0u;
            unsigned long long s = local;
            #pragma unroll
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
            cnt = s;
        }
        if (cnt <= k) t = c;
    }
    if (lane == 0) out[row] = (unsigned short)val_of(t);
}
""")

_KPL = 64
_ROWS_PER_BLOCK = 4


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        N = x.shape[-1]
        out = torch.empty(tuple(x.shape[:-1]), dtype=x.dtype, device=x.device)
        rows = out.numel()
        if rows == 0 or N == 0:
            return out
        grid = ((rows + _ROWS_PER_BLOCK - 1) // _ROWS_PER_BLOCK,)
        if N <= 32 * _KPL:
            vec = 1 if (N % 8 == 0 and x.data_ptr() % 16 == 0) else 0
            mod.median_warp_regs(grid=grid, block=(32 * _ROWS_PER_BLOCK,), args=(x, out, rows, N, vec))
        else:
            mod.median_warp_global(grid=grid, block=(32 * _ROWS_PER_BLOCK,), args=(x, out, rows, N))
        return out
