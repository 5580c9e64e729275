import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_fp16.h>

__device__ __forceinline__ float sum8(uint4 a) {
    const __half2* h = reinterpret_cast<const __half2*>(&a);
    float2 f0 = __half22float2(h[0]);
    float2 f1 = __half22float2(h[1]);
    float2 f2 = __half22float2(h[2]);
    float2 f3 = __half22float2(h[3]);
    return ((f0.x + f0.y) + (f1.x + f1.y)) + ((f2.x + f2.y) + (f3.x + f3.y));
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Long rows (L % 8 == 0, 16B aligned): one 256-thread block per (n, c) row. Each thread issues
// 8 independent 16-byte loads (block covers 32 KiB of the row contiguously) before accumulating,
// so a whole 128x128 fp16 plane is requested at once: deep memory-level parallelism and
// contiguous DRAM traffic. Block reduction: warp shuffles + 8-entry shared array.
__global__ void __launch_bounds__(256) gap_block_vec8(const __half* __restrict__ x, __half* __restrict__ y, long L) {
    __shared__ float red[8];
    const long row = blockIdx.x;
    const uint4* p = reinterpret_cast<const uint4*>(x + row * L);
    const long nvec = L >> 3;
    float acc = 0.f;
    for (long base = threadIdx.x; base < nvec; base += 256L * 8) {
        uint4 v[8];
        #pragma unroll
        for (int u = 0; u < 8; ++u) {
            const long i = base + u * 256L;
            v[u] = (i < nvec) ? __ldg(p + i) : make_uint4(0u, 0u, 0u, 0u);
        }
        float s0 = sum8(v[0]) + sum8(v[1]);
        float s1 = sum8(v[2]) + sum8(v[3]);
        float s2 = sum8(v[4]) + sum8(v[5]);
        float s3 = sum8(v[6]) + sum8(v[7]);
        acc += (s0 + s1) + (s2 + s3);
    }
    acc = warp_sum(acc);
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) red[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        float s = (lane < 8) ? red[lane] : 0.f;
        s = warp_sum(s);
        if (lane == 0) y[row] = __float2half_rn(s / (float)L);
    }
}

// Short rows: one warp per (n, c) row of L = H*W contiguous halves; L % 8 == 0 and 16B aligned.
__global__ void gap_vec8(const __half* __restrict__ x, __half* __restrict__ y, long rows, long L) {
    long row = (blockIdx.x * (long)blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const uint4* p = reinterpret_cast<const uint4*>(x + row * L);
    long nvec = L >> 3;
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
    long i = lane;
    for (; i + 96 < nvec; i += 128) {
        uint4 v0 = __ldg(p + i);
        uint4 v1 = __ldg(p + i + 32);
        uint4 v2 = __ldg(p + i + 64);
        uint4 v3 = __ldg(p + i + 96);
        a0 += sum8(v0); a1 += sum8(v1); a2 += sum8(v2); a3 += sum8(v3);
    }
    for (; i < nvec; i += 32) a0 += sum8(__ldg(p + i));
    float s = warp_sum((a0 + a1) + (a2 + a3));
    if (lane == 0) y[row] = __float2half_rn(s / (float)L);
}

// Generic path: any L, any alignment.
__global__ void gap_scalar(const __half* __restrict__ x, __half* __restrict__ y, long rows, long L) {
    long row = (blockIdx.x * (long)blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const __half* p = x + row * L;
    float a0 = 0.f, a1 = 0.f;
    long i = lane;
    for (; i + 32 < L; i += 64) {
        a0 += __half2float(p[i]);
        a1 += __half2float(p[i + 32]);
    }
    for (; i < L; i += 32) a0 += __half2float(p[i]);
    float s = warp_sum(a0 + a1);
    if (lane == 0) y[row] = __float2half_rn(s / (float)L);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        lead = list(x.shape[:-2])
        H, W = x.shape[-2], x.shape[-1]
        L = H * W
        rows = 1
        for s in lead:
            rows *= s
        y = torch.empty(lead + [1, 1], dtype=x.dtype, device=x.device)
        if rows == 0:
            return y
        threads = 256
        if L % 8 == 0 and x.data_ptr() % 16 == 0:
            if L >= 8 * 1024:
                mod.gap_block_vec8(grid=(rows,), block=(threads,), args=(x, y, L))
            else:
                blocks = (rows + 7) // 8
                mod.gap_vec8(grid=(blocks,), block=(threads,), args=(x, y, rows, L))
        else:
            blocks = (rows + 7) // 8
            mod.gap_scalar(grid=(blocks,), block=(threads,), args=(x, y, rows, L))
        return y
