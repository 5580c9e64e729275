import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// Same formula as torch's softplus (beta = 1, threshold = 20), full-precision expf/log1pf.
__device__ __forceinline__ float op(float x) {
    return x > 20.f ? x : log1pf(expf(x));
}

__device__ __forceinline__ float4 op4(float4 v) {
    float4 r;
    r.x = op(v.x); r.y = op(v.y); r.z = op(v.z); r.w = op(v.w);
    return r;
}

// One-shot grid (no grid-stride loop, no cap on blocks): each block of 256 threads covers
// 512 float4; each thread issues two float4 loads (stride 256 float4, so every warp
// instruction touches 512 contiguous bytes) before computing. Plain cached loads/stores.
__global__ void __launch_bounds__(256) softplus_vec_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                                                           int64_t n4) {
    const int64_t i0 = (int64_t)blockIdx.x * 512 + threadIdx.x;
    const int64_t i1 = i0 + 256;
    if (i1 < n4) {
        float4 a = __ldg(x + i0);
        float4 b = __ldg(x + i1);
        y[i0] = op4(a);
        y[i1] = op4(b);
    } else if (i0 < n4) {
        float4 a = __ldg(x + i0);
        y[i0] = op4(a);
    }
}

__global__ void softplus_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t start, int64_t n) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = start + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = op(x[i]);
    }
}

torch::Tensor softplus_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "expected contiguous float32 CUDA tensor");
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    int64_t done = 0;
    bool aligned = ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0;
    if (aligned) {
        const int64_t n4 = n / 4;
        if (n4 > 0) {
            int64_t blocks = (n4 + 511) / 512;
            softplus_vec_kernel<<<(unsigned int)blocks, 256, 0, stream>>>(reinterpret_cast<const float4*>(xp),
                                                                       reinterpret_cast<float4*>(yp), n4);
            C10_CUDA_KERNEL_LAUNCH_CHECK();
            done = n4 * 4;
        }
    }
    if (done < n) {
        const int threads = 256;
        int64_t rem = n - done;
        int64_t need = (rem + threads - 1) / threads;
        int64_t maxb = (int64_t)sms * 8;
        int blocks = (int)(need < maxb ? need : maxb);
        softplus_scalar_kernel<<<blocks, threads, 0, stream>>>(xp, yp, done, n);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
    return y;
}
"""

ext = load_inline(name="softplus_ext7", cpp_sources="torch::Tensor softplus_forward(torch::Tensor x);",
                  cuda_sources=cuda_src, functions=["softplus_forward"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.softplus_forward(x.contiguous())
