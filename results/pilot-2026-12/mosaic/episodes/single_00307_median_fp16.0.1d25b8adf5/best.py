import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# torch.median(x, dim=-1).values for fp16: one block per row, 2-pass radix select (8 bits per pass)
# on order-preserving 16-bit keys; the k = (N-1)//2 smallest (lower median). NaN in a row -> NaN.
mod = nvrtc.compile(r"""
#include <cuda_fp16.h>
#define ITEMS 8

__device__ __forceinline__ unsigned int key_of(unsigned int u) {
    // monotone map fp16 bits -> unsigned key
    return (u & 0x8000u) ? ((~u) & 0xffffu) : (u | 0x8000u);
}
__device__ __forceinline__ unsigned short val_of(unsigned int k) {
    return (k & 0x8000u) ? (unsigned short)(k & 0x7fffu) : (unsigned short)((~k) & 0xffffu);
}
__device__ __forceinline__ int is_nan16(unsigned int u) { return (u & 0x7fffu) > 0x7c00u; }

// warp 0 finds the bin b with cum(b-1) <= k < cum(b) over hist[256]; writes (b, k - cum(b-1)).
__device__ __forceinline__ void select_bin(const unsigned int* hist, unsigned int k, unsigned int* sel, int lane) {
    unsigned int c[8];
    unsigned int sum = 0;
    #pragma unroll
    for (int b = 0; b < 8; ++b) { c[b] = hist[lane * 8 + b]; sum += c[b]; }
    unsigned int incl = sum;
    #pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        unsigned int t = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += t;
    }
    unsigned int excl = incl - sum;
    if (excl <= k && k < incl) {
        unsigned int cum = excl;
        #pragma unroll
        for (int b = 0; b < 8; ++b) {
            if (k >= cum && k < cum + c[b]) { sel[0] = lane * 8 + b; sel[1] = k - cum; }
            cum += c[b];
        }
    }
}

__global__ void __launch_bounds__(1024) median_rows_fp16(
        const __half* __restrict__ x, __half* __restrict__ out, long rows, long N)
{
    __shared__ unsigned int hist[256];
    __shared__ unsigned int sel[2];
    const long row = blockIdx.x;
    if (row >= rows) return;
    const unsigned short* xr = reinterpret_cast<const unsigned short*>(x) + row * N;
    const int tid = threadIdx.x;
    const int bd = blockDim.x;
    const int lane = tid & 31;
    unsigned short* orow = reinterpret_cast<unsigned short*>(out) + row;

    for (int i = tid; i < 256; i += bd) hist[i] = 0u;
    __syncthreads();

    const unsigned int k0 = (unsigned int)((N - 1) / 2);
    const bool in_regs = N <= (long)ITEMS * bd;
    unsigned int keys[ITEMS];
    int has_nan = 0;
    if (in_regs) {
        #pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const long i = tid + (long)j * bd;
            unsigned int kk = 0xffffffffu;
            if (i < N) {
                unsigned int u = xr[i];
                has_nan |= is_nan16(u);
                kk = key_of(u);
            }
            keys[j] = kk;
        }
        #pragma unroll
        for (int j = 0; j < ITEMS; ++j)
            if (keys[j] != 0xffffffffu) atomicAdd(&hist[keys[j] >> 8], 1u);
    } else {
        for (long i = tid; i < N; i += bd) {
            unsigned int u = xr[i];
            has_nan |= is_nan16(u);
            atomicAdd(&hist[key_of(u) >> 8], 1u);
        }
    }
    has_nan = __syncthreads_or(has_nan);
    if (has_nan) {
        if (tid == 0) *orow = (unsigned short)0x7e00u;
        return;
    }
    if (tid < 32) select_bin(hist, k0, sel, lane);
    __syncthreads();
    const unsigned int hi = sel[0];
    const unsigned int k1 = sel[1];
    for (int i = tid; i < 256; i += bd) hist[i] = 0u;
    __syncthreads();
    if (in_regs) {
        #pragma unroll
        for (int j = 0; j < ITEMS; ++j)
            if (keys[j] != 0xffffffffu && (keys[j] >> 8) == hi) atomicAdd(&hist[keys[j] & 0xffu], 1u);
    } else {
        for (long i = tid; i < N; i += bd) {
            unsigned int kk = key_of(xr[i]);
            if ((kk >> 8) == hi) atomicAdd(&hist[kk & 0xffu], 1u);
        }
    }
    __syncthreads();
    if (tid < 32) select_bin(hist, k1, sel, lane);
    __syncthreads();
    if (tid == 0) *orow = val_of((hi << 8) | sel[0]);
}
""")


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
        per = (N + 7) // 8
        threads = min(1024, max(32, ((per + 31) // 32) * 32))
        mod.median_rows_fp16(grid=(rows,), block=(threads,), args=(x, out, rows, N))
        return out
