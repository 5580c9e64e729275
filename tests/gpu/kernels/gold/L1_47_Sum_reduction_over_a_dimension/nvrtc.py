"""Gold candidate (nvrtc backend) for KernelBench level1/47_Sum_reduction_over_a_dimension.py.

sum over one dim (keepdim) of a (128, 4096, 4095) tensor viewed as (outer, R, inner): one thread per
output, coalesced across the inner dim, 8 loads in flight, fp64 accumulation.
Device code is compiled by kernelmosaic.verify.nvrtc; forward only allocates and launches.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__global__ __launch_bounds__(256) void sum_over_dim(const float* __restrict__ x, float* __restrict__ y,
                                                    long outer, long R, long inner) {
    const long total = outer * inner;
    const long stride = (long)gridDim.x * blockDim.x;
    for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < total; t += stride) {
        const long o = t / inner;
        const long i = t - o * inner;
        const float* p = x + o * R * inner + i;
        double acc0 = 0.0, acc1 = 0.0;
        long r = 0;
        for (; r + 8 <= R; r += 8) {
            float v[8];
            #pragma unroll
            for (int u = 0; u < 8; ++u) v[u] = p[(r + u) * inner];
            acc0 += ((double)v[0] + (double)v[1]) + ((double)v[2] + (double)v[3]);
            acc1 += ((double)v[4] + (double)v[5]) + ((double)v[6] + (double)v[7]);
        }
        for (; r < R; ++r) acc0 += (double)p[r * inner];
        y[t] = (float)(acc0 + acc1);
    }
}
"""

mod = nvrtc.compile(SRC)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        d = self.dim % x.dim()
        outer = 1
        for s in x.shape[:d]:
            outer *= s
        inner = 1
        for s in x.shape[d + 1:]:
            inner *= s
        R = x.shape[d]
        out_shape = list(x.shape)
        out_shape[d] = 1
        y = torch.empty(out_shape, device=x.device, dtype=x.dtype)
        total = outer * inner
        if total == 0:
            return y
        blocks = max(1, min((total + 255) // 256, 2**31 - 1))
        mod.sum_over_dim(grid=(blocks,), block=(256,), args=(x, y, outer, R, inner))
        return y
