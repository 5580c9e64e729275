import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_fp16.h>

__device__ __forceinline__ float silu_f(float v) {
    return v / (1.0f + __expf(-v));
}

// Vectorized path: each thread handles 8 halves (16 bytes) per iteration.
__global__ void silu_vec8(const __half* __restrict__ x, __half* __restrict__ y, long nvec) {
    const uint4* __restrict__ xv = reinterpret_cast<const uint4*>(x);
    uint4* __restrict__ yv = reinterpret_cast<uint4*>(y);
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < nvec; i += stride) {
        uint4 a = __ldcs(xv + i);
        __half2* h = reinterpret_cast<__half2*>(&a);
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            float2 f = __half22float2(h[j]);
            f.x = silu_f(f.x);
            f.y = silu_f(f.y);
            h[j] = __floats2half2_rn(f.x, f.y);
        }
        __stcs(yv + i, a);
    }
}

// Scalar path for the tail (or unaligned data).
__global__ void silu_scalar(const __half* __restrict__ x, __half* __restrict__ y, long start, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = start + blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride) {
        float f = __half2float(x[i]);
        y[i] = __float2half_rn(silu_f(f));
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        if n == 0:
            return y
        threads = 256
        aligned = (x.data_ptr() % 16 == 0) and (y.data_ptr() % 16 == 0)
        nvec = n // 8 if aligned else 0
        if nvec > 0:
            blocks = min((nvec + threads - 1) // threads, 132 * 64)
            mod.silu_vec8(grid=(blocks,), block=(threads,), args=(x, y, nvec))
        start = nvec * 8
        rem = n - start
        if rem > 0:
            blocks = min((rem + threads - 1) // threads, 132 * 64)
            mod.silu_scalar(grid=(blocks,), block=(threads,), args=(x, y, start, n))
        return y
