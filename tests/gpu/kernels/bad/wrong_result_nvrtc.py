"""BAD candidate (nvrtc) for KernelBench level1/47_Sum_reduction_over_a_dimension.py: wrong result.

Compiles and runs cleanly, writes every output element, but the reduction loop has an off-by-one
(`r < R - 1`): it skips the last element of the reduced dimension. Each sum of 4096 values in
[0, 1) is short by about 0.5, far outside rtol=1e-4 for most elements. Expected verdict: incorrect.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__global__ __launch_bounds__(256) void sum_over_dim_off_by_one(const float* __restrict__ x, float* __restrict__ y,
                                                               long outer, long R, long inner) {
    const long total = outer * inner;
    const long stride = (long)gridDim.x * blockDim.x;
    for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < total; t += stride) {
        const long o = t / inner;
        const long i = t - o * inner;
        const float* p = x + o * R * inner + i;
        double acc = 0.0;
        for (long r = 0; r < R - 1; ++r) acc += (double)p[r * inner];   // BUG: drops the last element
        y[t] = (float)acc;
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
        mod.sum_over_dim_off_by_one(grid=(blocks,), block=(256,), args=(x, y, outer, R, inner))
        return y
