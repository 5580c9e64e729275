import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Lower median along the last dim (torch.median semantics: element of rank (N-1)/2; NaN if the row has a NaN).
# bf16 bits are mapped to order-preserving 16-bit keys (kept packed two per register); the rank-k key is
# found by a 16-step bitwise binary search, counting keys <= candidate with packed min.u16x2 (sm_90)
# and summing across the warp with __reduce_add_sync.
cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ unsigned int to_key(unsigned int u) {
    return (u & 0x8000u) ? ((~u) & 0xFFFFu) : (u | 0x8000u);
}
__device__ __forceinline__ unsigned short from_key(unsigned int k) {
    return (unsigned short)((k & 0x8000u) ? (k & 0x7FFFu) : ((~k) & 0xFFFFu));
}
__device__ __forceinline__ bool is_nan_bits(unsigned int u) { return (u & 0x7FFFu) > 0x7F80u; }

__device__ __forceinline__ unsigned int min_u16x2(unsigned int a, unsigned int b) {
    unsigned int d;
    asm("min.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

// Row cached in registers as packed 16-bit keys (two per 32-bit register): N % 8 == 0, N/8 <= 32*NV.
// Per candidate c (bit b of c is 0, so c + 1 <= 0xFFFF fits a half), the number of keys > c is
//   sum over halves of min(k, c+1) - min(k, c)   (each half difference is 0 or 1: no borrow across halves),
// computed with the native Hopper min.u16x2. Padding keys are 0xFFFF: always > c, so they are never
// counted as <= c. count(<= c) = slots - count(> c).
template <int NV>
__global__ void __launch_bounds__(256) median_reg(const unsigned short* __restrict__ x, unsigned short* __restrict__ y,
                                                  long rows, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const uint4* __restrict__ xr = reinterpret_cast<const uint4*>(x + row * N);
    const long nv = N >> 3;
    unsigned int key[NV * 4];
    bool nan = false;
    #pragma unroll
    for (int v = 0; v < NV; ++v) {
        long idx = lane + 32L * v;
        if (idx < nv) {
            uint4 w4 = __ldcs(xr + idx);
            unsigned int w[4] = {w4.x, w4.y, w4.z, w4.w};
            #pragma unroll
            for (int i = 0; i < 4; ++i) {
                nan |= is_nan_bits(w[i] & 0xFFFFu) | is_nan_bits(w[i] >> 16);
                const unsigned int sgn = (w[i] >> 15) & 0x00010001u;      // sign bit of each half
                key[v * 4 + i] = w[i] ^ ((sgn * 0xFFFFu) | 0x80008000u); // per half: to_key()
            }
        } else {
            #pragma unroll
            for (int i = 0; i < 4; ++i) key[v * 4 + i] = 0xFFFFFFFFu;
        }
    }
    if (__any_sync(0xffffffffu, nan)) {
        if (lane == 0) y[row] = (unsigned short)0x7FC0u;
        return;
    }
    const unsigned int need = (unsigned int)((N - 1) / 2) + 1u;
    const unsigned int slots = 32u * 8u * (unsigned int)NV;   // keys held by the warp, padding included
    unsigned int ans = 0u;
    #pragma unroll 1
    for (int b = 15; b >= 0; --b) {
        const unsigned int cand = ans | ((1u << b) - 1u);     // <= 0xFFFE
        const unsigned int c0 = cand * 0x00010001u;
        const unsigned int c1 = (cand + 1u) * 0x00010001u;
        unsigned int acc = 0u;
        #pragma unroll
        for (int i = 0; i < NV * 4; ++i) acc += min_u16x2(key[i], c1) - min_u16x2(key[i], c0);
        unsigned int gt = (acc & 0xFFFFu) + (acc >> 16);
        gt = __reduce_add_sync(0xffffffffu, gt);
        if (slots - gt < need) ans |= (1u << b);
    }
    if (lane == 0) y[row] = from_key(ans);
}

// Generic: any N, keys re-read from global memory on each of the 16 passes.
__global__ void __launch_bounds__(256) median_generic(const unsigned short* __restrict__ x, unsigned short* __restrict__ y,
                                                      long rows, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const unsigned short* xr = x + row * N;
    bool nan = false;
    for (long i = lane; i < N; i += 32) nan |= is_nan_bits(xr[i]);
    if (__any_sync(0xffffffffu, nan)) {
        if (lane == 0) y[row] = (unsigned short)0x7FC0u;
        return;
    }
    const unsigned long long need = (unsigned long long)((N - 1) / 2) + 1ull;
    unsigned int ans = 0u;
    for (int b = 15; b >= 0; --b) {
        const unsigned int cand = ans | ((1u << b) - 1u);
        unsigned int c = 0;
        for (long i = lane; i < N; i += 32) c += (to_key(xr[i]) <= cand) ? 1u : 0u;
        unsigned long long tot = c;
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) tot += __shfl_xor_sync(0xffffffffu, tot, o);
        if (tot < need) ans |= (1u << b);
    }
    if (lane == 0) y[row] = from_key(ans);
}

torch::Tensor median_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kBFloat16 && x.is_contiguous());
    TORCH_CHECK(x.dim() >= 1 && x.size(-1) > 0);
    auto sizes = x.sizes().vec();
    const long N = sizes.back();
    sizes.pop_back();
    auto y = torch::empty(sizes, x.options());
    const long rows = x.numel() / N;
    if (rows == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    const unsigned short* xp = reinterpret_cast<const unsigned short*>(x.data_ptr<at::BFloat16>());
    unsigned short* yp = reinterpret_cast<unsigned short*>(y.data_ptr<at::BFloat16>());
    const int threads = 256;
    const long warps = threads / 32;
    const long blocks = (rows + warps - 1) / warps;
    const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16) == 0;
    const long nv = N / 8;
    if (aligned && N % 8 == 0 && nv <= 32) {
        median_reg<1><<<blocks, threads, 0, stream>>>(xp, yp, rows, N);
    } else if (aligned && N % 8 == 0 && nv <= 64) {
        median_reg<2><<<blocks, threads, 0, stream>>>(xp, yp, rows, N);
    } else if (aligned && N % 8 == 0 && nv <= 128) {
        median_reg<4><<<blocks, threads, 0, stream>>>(xp, yp, rows, N);
    } else {
        median_generic<<<blocks, threads, 0, stream>>>(xp, yp, rows, N);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_src = "torch::Tensor median_forward(torch::Tensor x);"

ext = load_inline(name="median_bf16_ext2", cpp_sources=cpp_src, cuda_sources=cuda_src,
                  functions=["median_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.median_forward(x.contiguous())
