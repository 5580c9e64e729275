"""Gold candidate (nvrtc backend) for KernelBench level1/24_LogSoftmax.py.

log_softmax over the last dim (4096 rows x 393216): one 1024-thread block per row, online (max, sum-
exp) per thread, warp-shuffle block merge, then y = x - (max + log(sum)).
Device code is compiled by kernelmosaic.verify.nvrtc; forward only allocates and launches.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
#define KM_NEG_BIG (-3.402823466e38f)
#define KM_FULL 0xffffffffu

// Merge two partial (max, sum of exp(x - max)) pairs. An empty pair is (KM_NEG_BIG, 0).
__device__ __forceinline__ void ms_combine(float& m, float& s, float m2, float s2) {
    float mn = fmaxf(m, m2);
    s = s * expf(m - mn) + s2 * expf(m2 - mn);
    m = mn;
}

__device__ __forceinline__ void ms_push(float& m, float& s, float v) {
    if (v > m) {
        s = s * expf(m - v) + 1.0f;
        m = v;
    } else {
        s += expf(v - m);
    }
}

// Block-wide (max, sum) reduction; blockDim.x must be a multiple of 32 (<= 1024).
// Every thread gets the result.
__device__ __forceinline__ void block_ms(float& m, float& s) {
    __shared__ float sh_m[32];
    __shared__ float sh_s[32];
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(KM_FULL, m, o);
        float s2 = __shfl_xor_sync(KM_FULL, s, o);
        ms_combine(m, s, m2, s2);
    }
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int nw = blockDim.x >> 5;
    if (lane == 0) { sh_m[wid] = m; sh_s[wid] = s; }
    __syncthreads();
    if (wid == 0) {
        m = lane < nw ? sh_m[lane] : KM_NEG_BIG;
        s = lane < nw ? sh_s[lane] : 0.0f;
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            float m2 = __shfl_xor_sync(KM_FULL, m, o);
            float s2 = __shfl_xor_sync(KM_FULL, s, o);
            ms_combine(m, s, m2, s2);
        }
        if (lane == 0) { sh_m[0] = m; sh_s[0] = s; }
    }
    __syncthreads();
    m = sh_m[0];
    s = sh_s[0];
    __syncthreads();  // sh_m/sh_s may be reused by the next call
}

// Per-thread (max, sum) over one row, float4 loads when possible.
__device__ __forceinline__ void row_ms(const float* __restrict__ xr, long cols, bool vec, float& m, float& s) {
    m = KM_NEG_BIG;
    s = 0.0f;
    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        const long n4 = cols >> 2;
        for (long i = threadIdx.x; i < n4; i += blockDim.x) {
            float4 v = x4[i];
            ms_push(m, s, v.x); ms_push(m, s, v.y); ms_push(m, s, v.z); ms_push(m, s, v.w);
        }
    } else {
        for (long i = threadIdx.x; i < cols; i += blockDim.x) ms_push(m, s, xr[i]);
    }
}

__global__ __launch_bounds__(1024) void log_softmax_rows(const float* __restrict__ x, float* __restrict__ y, long rows, long cols) {
    const bool vec = ((cols & 3) == 0) &&
        (((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(y)) & 15ull) == 0ull);
    for (long row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* xr = x + row * cols;
        float* yr = y + row * cols;
        float m, s;
        row_ms(xr, cols, vec, m, s);
        block_ms(m, s);
        const float lse = m + logf(s);
        if (vec) {
            const float4* x4 = reinterpret_cast<const float4*>(xr);
            float4* y4 = reinterpret_cast<float4*>(yr);
            for (long i = threadIdx.x; i < (cols >> 2); i += blockDim.x) {
                float4 v = x4[i];
                v.x -= lse; v.y -= lse; v.z -= lse; v.w -= lse;
                y4[i] = v;
            }
        } else {
            for (long i = threadIdx.x; i < cols; i += blockDim.x) yr[i] = xr[i] - lse;
        }
    }
}
"""

mod = nvrtc.compile(SRC)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim if self.dim >= 0 else self.dim + x.dim()
        assert d == x.dim() - 1, "this kernel reduces over the last dimension"
        x = x.contiguous()
        y = torch.empty_like(x)
        cols = x.shape[-1]
        rows = x.numel() // cols if cols > 0 else 0
        if rows == 0:
            return y
        mod.log_softmax_rows(grid=(min(rows, 2**31 - 1),), block=(1024,), args=(x, y, rows, cols))
        return y
