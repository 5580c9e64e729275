"""BAD candidate (cuda / load_inline) for KernelBench level1/36_RMSNorm_.py: wrong result.

Compiles and runs cleanly and writes every output element, but the mean of squares divides by
(C - 1) instead of C (an off-by-one in the feature count): with C = 64 every output is too large by
a factor sqrt(64/63), about 0.8 % relative error. Expected verdict: incorrect.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

__global__ __launch_bounds__(256) void rmsnorm_wrong_count(const float* __restrict__ x, float* __restrict__ y,
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
        const float rms = sqrtf(ss / (float)(C - 1) + eps);   // BUG: should divide by C
        for (long c = 0; c < C; ++c) y[base + c * inner] = x[base + c * inner] / rms;
    }
}

torch::Tensor rmsnorm_forward(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "x: contiguous float32 CUDA tensor");
    auto y = torch::empty_like(x);
    const int64_t outer = x.size(0), C = x.size(1);
    const int64_t inner = (outer * C) > 0 ? x.numel() / (outer * C) : 0;
    const int64_t total = outer * inner;
    if (total == 0) return y;
    int64_t blocks = (total + 255) / 256;
    if (blocks > 2147483647LL) blocks = 2147483647LL;
    rmsnorm_wrong_count<<<(unsigned)blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (long)outer, (long)C, (long)inner, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_src = "torch::Tensor rmsnorm_forward(torch::Tensor x, double eps);"

ext = load_inline(
    name="km_bad_rmsnorm_wrong_count",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["rmsnorm_forward"],
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
