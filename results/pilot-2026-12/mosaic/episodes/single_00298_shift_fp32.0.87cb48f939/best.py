import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void shift_add(const float* __restrict__ x, float* __restrict__ y, long n) {
    const float c = 0.27f;
    // vector path: 4 float4 per thread, strided by blockDim so warps stay coalesced
    const long nvec = n >> 2;
    const bool aligned = ((((unsigned long long)x) | ((unsigned long long)y)) & 15ull) == 0ull;
    if (aligned) {
        const float4* __restrict__ xv = reinterpret_cast<const float4*>(x);
        float4* __restrict__ yv = reinterpret_cast<float4*>(y);
        long base = (long)blockIdx.x * (blockDim.x * 4L) + threadIdx.x;
        float4 v[4];
        #pragma unroll
        for (int u = 0; u < 4; ++u) {
            long i = base + (long)u * blockDim.x;
            if (i < nvec) v[u] = __ldcs(xv + i);
        }
        #pragma unroll
        for (int u = 0; u < 4; ++u) {
            long i = base + (long)u * blockDim.x;
            if (i < nvec) {
                float4 r;
                r.x = v[u].x + c; r.y = v[u].y + c; r.z = v[u].z + c; r.w = v[u].w + c;
                __stcs(yv + i, r);
            }
        }
        // scalar tail (at most 3 elements), handled by block 0
        if (blockIdx.x == 0 && threadIdx.x < (n & 3)) {
            long i = (nvec << 2) + threadIdx.x;
            y[i] = x[i] + c;
        }
    } else {
        long base = (long)blockIdx.x * (blockDim.x * 16L) + threadIdx.x;
        #pragma unroll
        for (int u = 0; u < 16; ++u) {
            long i = base + (long)u * blockDim.x;
            if (i < n) y[i] = x[i] + c;
        }
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
        per_block = threads * 16  # 4 float4 per thread (or 16 scalars per thread)
        grid = (n + per_block - 1) // per_block
        mod.shift_add(grid=(grid,), block=(threads,), args=(x, y, n))
        return y
