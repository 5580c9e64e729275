"""Gold candidate (cuda / load_inline backend) for KernelBench level1/88_MinGPTNewGelu.py.

tanh-approximation GELU (MinGPT), elementwise: grid-stride float4 loop, tanhf in fp32.
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

__device__ __forceinline__ float new_gelu(float x) {
    const float k = 0.7978845608028654f;   // sqrt(2 / pi)
    const float inner = k * (x + 0.044715f * (x * x * x));
    return 0.5f * x * (1.0f + tanhf(inner));
}

__global__ __launch_bounds__(256) void new_gelu_f32(const float* __restrict__ x, float* __restrict__ y, long n) {
    const long tid = blockIdx.x * (long)blockDim.x + threadIdx.x;
    const long stride = (long)gridDim.x * blockDim.x;
    const bool vec = ((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(y)) & 15ull) == 0ull;
    long done = 0;
    if (vec) {
        const long n4 = n >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        float4* y4 = reinterpret_cast<float4*>(y);
        for (long i = tid; i < n4; i += stride) {
            float4 v = x4[i];
            v.x = new_gelu(v.x); v.y = new_gelu(v.y); v.z = new_gelu(v.z); v.w = new_gelu(v.w);
            y4[i] = v;
        }
        done = n4 << 2;
    }
    for (long i = done + tid; i < n; i += stride) y[i] = new_gelu(x[i]);
}

torch::Tensor new_gelu_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "x: contiguous float32 CUDA tensor");
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return y;
    int64_t blocks = (n / 4 + 255) / 256;
    if (blocks > 132 * 16) blocks = 132 * 16;
    if (blocks < 1) blocks = 1;
    new_gelu_f32<<<(unsigned)blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), y.data_ptr<float>(), (long)n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_src = "torch::Tensor new_gelu_forward(torch::Tensor x);"

ext = load_inline(
    name="km_gold_l1_88_mingptnewgelu",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=['new_gelu_forward'],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.new_gelu_forward(x.contiguous())
