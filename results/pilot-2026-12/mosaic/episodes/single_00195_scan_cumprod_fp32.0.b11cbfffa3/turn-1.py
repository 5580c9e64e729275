import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# out = cumprod(1 + 0.01 * x, dim=-1): one warp per row, warp-level multiplicative scan per chunk,
# running carry across chunks. Loads of the next chunk are issued before the current chunk's scan.
mod = nvrtc.compile(r"""
__device__ __forceinline__ float tf(float v) {
    // same rounding as the reference: fl(1 + fl(0.01f * x))
    return __fadd_rn(1.0f, __fmul_rn(0.01f, v));
}

__device__ __forceinline__ float warp_incl_prod(float v, int lane) {
    #pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        float t = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v *= t;
    }
    return v;
}

// L % 4 == 0 and 16-byte aligned rows: each lane handles 4 consecutive elements per 128-chunk
__global__ void __launch_bounds__(256) cumprod_rows_vec4(
        const float* __restrict__ x, float* __restrict__ y, long rows, long L)
{
    const long row = ((long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float4* xr = reinterpret_cast<const float4*>(x + row * L);
    float4* yr = reinterpret_cast<float4*>(y + row * L);
    const long nv = L >> 2;                 // float4s per row
    float carry = 1.0f;
    float4 cur = make_float4(1.f, 1.f, 1.f, 1.f);
    if (lane < nv) cur = __ldcs(xr + lane);
    for (long base = 0; base < nv; base += 32) {
        const long i = base + lane;
        float4 nxt = make_float4(1.f, 1.f, 1.f, 1.f);
        if (i + 32 < nv) nxt = __ldcs(xr + i + 32);
        float p0 = tf(cur.x);
        float p1 = p0 * tf(cur.y);
        float p2 = p1 * tf(cur.z);
        float p3 = p2 * tf(cur.w);
        if (i >= nv) p3 = 1.0f;             // inactive lanes contribute identity
        float incl = warp_incl_prod(p3, lane);
        float excl = __shfl_up_sync(0xffffffffu, incl, 1);
        if (lane == 0) excl = 1.0f;
        const float pre = carry * excl;
        if (i < nv) {
            float4 o;
            o.x = pre * p0; o.y = pre * p1; o.z = pre * p2; o.w = pre * p3;
            __stcs(yr + i, o);
        }
        carry *= __shfl_sync(0xffffffffu, incl, 31);
        cur = nxt;
    }
}

// L % 4 == 0, 16-byte aligned rows, L <= 4 * 32 * MAXC: the whole row is loaded into registers up front
// (MAXC independent 16-byte loads in flight per lane), then scanned chunk by chunk with exactly the same
// arithmetic as cumprod_rows_vec4.
#define MAXC 8
__global__ void __launch_bounds__(256) cumprod_rows_reg(
        const float* __restrict__ x, float* __restrict__ y, long rows, long L)
{
    const long row = ((long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float4* xr = reinterpret_cast<const float4*>(x + row * L);
    float4* yr = reinterpret_cast<float4*>(y + row * L);
    const long nv = L >> 2;
    float4 buf[MAXC];
    #pragma unroll
    for (int c = 0; c < MAXC; ++c) {
        const long i = (long)c * 32 + lane;
        buf[c] = make_float4(1.f, 1.f, 1.f, 1.f);
        if (i < nv) buf[c] = __ldcs(xr + i);
    }
    float carry = 1.0f;
    #pragma unroll
    for (int c = 0; c < MAXC; ++c) {
        const long base = (long)c * 32;
        if (base < nv) {                    // warp-uniform
            const long i = base + lane;
            const float4 cur = buf[c];
            float p0 = tf(cur.x);
            float p1 = p0 * tf(cur.y);
            float p2 = p1 * tf(cur.z);
            float p3 = p2 * tf(cur.w);
            if (i >= nv) p3 = 1.0f;
            float incl = warp_incl_prod(p3, lane);
            float excl = __shfl_up_sync(0xffffffffu, incl, 1);
            if (lane == 0) excl = 1.0f;
            const float pre = carry * excl;
            if (i < nv) {
                float4 o;
                o.x = pre * p0; o.y = pre * p1; o.z = pre * p2; o.w = pre * p3;
                __stcs(yr + i, o);
            }
            carry *= __shfl_sync(0xffffffffu, incl, 31);
        }
    }
}

// generic: one element per lane per 32-chunk
__global__ void __launch_bounds__(256) cumprod_rows_scalar(
        const float* __restrict__ x, float* __restrict__ y, long rows, long L)
{
    const long row = ((long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* xr = x + row * L;
    float* yr = y + row * L;
    float carry = 1.0f;
    float cur = 0.0f;
    if (lane < L) cur = __ldcs(xr + lane);
    for (long base = 0; base < L; base += 32) {
        const long i = base + lane;
        float nxt = 0.0f;
        if (i + 32 < L) nxt = __ldcs(xr + i + 32);
        float v = (i < L) ? tf(cur) : 1.0f;
        float incl = warp_incl_prod(v, lane);
        if (i < L) __stcs(yr + i, carry * incl);
        carry *= __shfl_sync(0xffffffffu, incl, 31);
        cur = nxt;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        L = x.shape[2]
        rows = x.numel() // L if L > 0 else 0
        if rows == 0:
            return y
        threads = 256
        blocks = (rows + (threads // 32) - 1) // (threads // 32)
        if L % 4 == 0 and L <= 4 * 32 * 8 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            mod.cumprod_rows_reg(grid=(blocks,), block=(threads,), args=(x, y, rows, L))
        elif L % 4 == 0 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            mod.cumprod_rows_vec4(grid=(blocks,), block=(threads,), args=(x, y, rows, L))
        else:
            mod.cumprod_rows_scalar(grid=(blocks,), block=(threads,), args=(x, y, rows, L))
        return y
