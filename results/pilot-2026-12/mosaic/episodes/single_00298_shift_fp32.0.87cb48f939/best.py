import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# y = x + 0.27f. Memory-bound: plain (default-cached) 128-bit loads/stores, 4 float4 per thread,
# all loads issued before the stores; scalar tail handled separately.
mod = nvrtc.compile(r"""
__global__ void __launch_bounds__(256) shift_vec(const float* __restrict__ xs, float* __restrict__ ys, long nvec) {
    const float c = 0.27f;
    const float4* __restrict__ x = reinterpret_cast<const float4*>(xs);
    float4* __restrict__ y = reinterpret_cast<float4*>(ys);
    const long base = (long)blockIdx.x * (256L * 4L) + threadIdx.x;
    float4 v[4];
    #pragma unroll
    for (int u = 0; u < 4; ++u) {
        long i = base + (long)u * 256L;
        if (i < nvec) v[u] = x[i];
    }
    #pragma unroll
    for (int u = 0; u < 4; ++u) {
        long i = base + (long)u * 256L;
        if (i < nvec) {
            float4 r;
            r.x = v[u].x + c; r.y = v[u].y + c; r.z = v[u].z + c; r.w = v[u].w + c;
            y[i] = r;
        }
    }
}

__global__ void shift_scalar(const float* __restrict__ x, float* __restrict__ y, long start, long n) {
    long i = start + (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + 0.27f;
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
        start = 0
        if x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            nvec = n // 4
            if nvec > 0:
                per_block = 256 * 4
                mod.shift_vec(grid=((nvec + per_block - 1) // per_block,), block=(256,),
                              args=(x, y, nvec))
            start = nvec * 4
        if start < n:
            rem = n - start
            mod.shift_scalar(grid=((rem + 255) // 256,), block=(256,), args=(x, y, start, n))
        return y
