"""Gold candidate (cuda / load_inline backend) for KernelBench level1/36_RMSNorm_.py.

RMS norm over dim 1 of (112, 64, 512, 512): one thread per (batch, spatial) position, coalesced
across the spatial index, two passes over the 64 features.
The host wrapper only allocates with torch::empty/zeros and launches on the current stream.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <vector>

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

torch::Tensor rmsnorm_forward(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "x: contiguous float32 CUDA tensor");
    TORCH_CHECK(x.dim() >= 2, "x must have at least 2 dims");
    auto y = torch::empty_like(x);
    const int64_t outer = x.size(0), C = x.size(1);
    const int64_t inner = (outer * C) > 0 ? x.numel() / (outer * C) : 0;
    const int64_t total = outer * inner;
    if (total == 0) return y;
    int64_t blocks = (total + 255) / 256;
    if (blocks > 2147483647LL) blocks = 2147483647LL;
    rmsnorm_dim1<<<(unsigned)blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (long)outer, (long)C, (long)inner, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_src = "torch::Tensor rmsnorm_forward(torch::Tensor x, double eps);"

ext = load_inline(
    name="km_gold_l1_36_rmsnorm",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=['rmsnorm_forward'],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.rmsnorm_forward(x.contiguous(), float(self.eps))
