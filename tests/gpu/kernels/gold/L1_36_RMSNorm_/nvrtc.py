"""Gold candidate (nvrtc backend) for KernelBench level1/36_RMSNorm_.py.

RMS norm over dim 1 of (112, 64, 512, 512): one thread per (batch, spatial) position, coalesced
across the spatial index, two passes over the 64 features.
Device code is compiled by kernelmosaic.verify.nvrtc; forward only allocates and launches.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__global__ __launch_bounds__(256) void rmsnorm_dim1(const float* __restrict__ x, float* __restrict__ y,
                                                    long outer, long C, long inner, float eps) {
    const long total = outer * inner;
    const long stride = (long)gridDim.x * blockDim.x;
    for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < total; t += stride) {
        const long o = t / inner;
        const long i = t - o * inner;
        const long base = o * C * inner + i;
        float ss = 0.0f;
        for (long c = 0; c < C; ++c) {
            const float v = x[base + c * inner];
            ss = fmaf(v, v, ss);
        }
        const float rms = sqrtf(ss / (float)C + eps);
        for (long c = 0; c < C; ++c) y[base + c * inner] = x[base + c * inner] / rms;
    }
}
"""

mod = nvrtc.compile(SRC)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        outer = x.shape[0]
        C = x.shape[1]
        inner = x.numel() // (outer * C) if outer * C > 0 else 0
        total = outer * inner
        if total == 0:
            return y
        blocks = max(1, min((total + 255) // 256, 2**31 - 1))
        mod.rmsnorm_dim1(grid=(blocks,), block=(256,), args=(x, y, outer, C, inner, float(self.eps)))
        return y
