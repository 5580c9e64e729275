import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_bf16.h>

// a = earlier (prefix), b = later. torch.cummax semantics: a NaN sticks, otherwise the running max
// (ties keep an equal value). max.NaN.f32 is exactly that in one instruction, and it is idempotent
// (max(a, a) = a), which lets the warp scan drop its lane predicates.
__device__ __forceinline__ float cmb(float a, float b) {
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
__device__ __forceinline__ float lo_f(unsigned int u) { return __uint_as_float(u << 16); }
__device__ __forceinline__ float hi_f(unsigned int u) { return __uint_as_float(u & 0xffff0000u); }
__device__ __forceinline__ unsigned int pack2(float a, float b) {
    // values are exact bf16 values held in fp32: take the high halves
    return (__float_as_uint(a) >> 16) | (__float_as_uint(b) & 0xffff0000u);
}

// Scan 8 values held per lane (contiguous), 32 lanes = 256 contiguous elements.
__device__ __forceinline__ void seg_scan(float (&v)[8], float& carry, int lane) {
#pragma unroll
    for (int t = 1; t < 8; ++t) v[t] = cmb(v[t - 1], v[t]);
    float tot = v[7];
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        // lanes < o get their own value back from shfl_up: max(x, x) = x, no predicate needed
        tot = cmb(__shfl_up_sync(0xffffffffu, tot, o), tot);
    }
    const float ex = __shfl_up_sync(0xffffffffu, tot, 1);
    const float pre = (lane == 0) ? carry : cmb(carry, ex);
#pragma unroll
    for (int t = 0; t < 8; ++t) v[t] = cmb(pre, v[t]);
    carry = cmb(carry, __shfl_sync(0xffffffffu, tot, 31));
}

// Vectorised path: N % 8 == 0 and 16-byte aligned rows. One warp per row; 8 uint4 (64 bf16) per lane
// are loaded before any scanning so each warp keeps 4 KiB in flight.
__global__ void __launch_bounds__(256) cummax_vec(const __nv_bfloat16* __restrict__ x,
                                                  __nv_bfloat16* __restrict__ y,
                                                  long rows, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const long nvec = N >> 3;
    const uint4* xr = reinterpret_cast<const uint4*>(x) + row * nvec;
    uint4* yr = reinterpret_cast<uint4*>(y) + row * nvec;
    const float NEG_INF = __int_as_float(0xff800000);
    float carry = NEG_INF;
    const int U = 8;
    for (long base = 0; base < nvec; base += 32 * U) {
        uint4 raw[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            long idx = base + u * 32 + lane;
            if (idx < nvec) raw[u] = xr[idx];
            else raw[u] = make_uint4(0xff80ff80u, 0xff80ff80u, 0xff80ff80u, 0xff80ff80u);  // -inf pairs
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            if (base + u * 32 < nvec) {  // warp-uniform
                float v[8];
                v[0] = lo_f(raw[u].x); v[1] = hi_f(raw[u].x);
                v[2] = lo_f(raw[u].y); v[3] = hi_f(raw[u].y);
                v[4] = lo_f(raw[u].z); v[5] = hi_f(raw[u].z);
                v[6] = lo_f(raw[u].w); v[7] = hi_f(raw[u].w);
                seg_scan(v, carry, lane);
                long idx = base + u * 32 + lane;
                if (idx < nvec) {
                    uint4 o;
                    o.x = pack2(v[0], v[1]); o.y = pack2(v[2], v[3]);
                    o.z = pack2(v[4], v[5]); o.w = pack2(v[6], v[7]);
                    yr[idx] = o;
                }
            }
        }
    }
}

// Generic path: any N / alignment. One warp per row, scalar loads.
__global__ void __launch_bounds__(256) cummax_scalar(const __nv_bfloat16* __restrict__ x,
                                                     __nv_bfloat16* __restrict__ y,
                                                     long rows, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const unsigned short* xr = reinterpret_cast<const unsigned short*>(x) + row * N;
    unsigned short* yr = reinterpret_cast<unsigned short*>(y) + row * N;
    const float NEG_INF = __int_as_float(0xff800000);
    float carry = NEG_INF;
    for (long base = 0; base < N; base += 256) {
        float v[8];
#pragma unroll
        for (int t = 0; t < 8; ++t) {
            long i = base + lane * 8 + t;
            v[t] = (i < N) ? __uint_as_float(((unsigned int)xr[i]) << 16) : NEG_INF;
        }
        seg_scan(v, carry, lane);
#pragma unroll
        for (int t = 0; t < 8; ++t) {
            long i = base + lane * 8 + t;
            if (i < N) yr[i] = (unsigned short)(__float_as_uint(v[t]) >> 16);
        }
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        # cummax along dim=1: move dim 1 last when needed (general ranks)
        x = x.contiguous()
        if x.dim() == 2:
            xt = x
        else:
            xt = x.movedim(1, -1).contiguous()
        y = torch.empty_like(xt)
        n = xt.numel()
        if n == 0:
            return y if x.dim() == 2 else y.movedim(-1, 1)
        N = xt.shape[-1]
        rows = n // N
        rpb = 8
        grid = ((rows + rpb - 1) // rpb,)
        if N % 8 == 0 and xt.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            mod.cummax_vec(grid=grid, block=(256,), args=(xt, y, rows, N))
        else:
            mod.cummax_scalar(grid=grid, block=(256,), args=(xt, y, rows, N))
        if x.dim() == 2:
            return y
        return y.movedim(-1, 1).contiguous()
