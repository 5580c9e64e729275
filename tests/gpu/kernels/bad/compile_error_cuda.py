"""BAD candidate (cuda / load_inline) for KernelBench level1/19_ReLU.py: does not compile.

The CUDA source has a genuine type error in device code (a float4 assigned to a float) and a
host-side one (a float* initialised from a torch::Tensor), so nvcc fails and load_inline raises
at import. Expected verdict: compile_error.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void relu_broken_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = reinterpret_cast<const float4*>(x)[i];   // error: no conversion from float4 to float
        y[i] = v < 0.0f ? 0.0f : v;
    }
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const long n = x.numel();
    float* yp = y;                                         // error: no conversion from torch::Tensor to float*
    relu_broken_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), yp, n);
    return y;
}
"""

cpp_src = "torch::Tensor relu_forward(torch::Tensor x);"

ext = load_inline(
    name="km_bad_relu_compile_error",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu_forward(x.contiguous())
