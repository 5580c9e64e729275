import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// swish(x) = x * sigmoid(x) = x / (1 + e^-x). Fast exp (ex2.approx) + fast divide (rcp.approx):
// ~2 ulp each, far inside the 1e-4 tolerance, and cuts the ALU work per element to a few instructions
// so the kernel stays bandwidth bound. For x -> -inf, e^-x = inf and __fdividef gives -0 (exact limit).
__device__ __forceinline__ float op(float x, float p) {
    return __fdividef(x, 1.0f + __expf(-x));
}

// Vectorized grid-stride elementwise kernel: UNROLL float4 per thread per iteration.
template <int UNROLL>
__global__ void __launch_bounds__(256) ew_vec_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                                                    int64_t n4, float p) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    int64_t base = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; base < n4; base += stride * UNROLL) {
        float4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            int64_t i = base + (int64_t)u * stride;
            if (i < n4) v[u] = x[i];
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            int64_t i = base + (int64_t)u * stride;
            if (i < n4) {
                float4 r;
                r.x = op(v[u].x, p); r.y = op(v[u].y, p); r.z = op(v[u].z, p); r.w = op(v[u].w, p);
                y[i] = r;
            }
        }
    }
}

__global__ void ew_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t start, int64_t n, float p) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = start + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = op(x[i], p);
    }
}

torch::Tensor ew_forward(torch::Tensor x, double p_) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "expected contiguous float32 CUDA tensor");
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return y;
    const float p = (float)p_;
    auto stream = at::cuda::getCurrentCUDAStream();
    int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const int threads = 256;
    int64_t done = 0;
    bool aligned = ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0;
    if (aligned) {
        const int64_t n4 = n / 4;
        if (n4 > 0) {
            constexpr int UNROLL = 4;
            int64_t need = (n4 + (int64_t)threads * UNROLL - 1) / ((int64_t)threads * UNROLL);
            int64_t maxb = (int64_t)sms * 8;
            int blocks = (int)(need < maxb ? need : maxb);
            if (blocks < 1) blocks = 1;
            ew_vec_kernel<UNROLL><<<blocks, threads, 0, stream>>>(reinterpret_cast<const float4*>(xp),
                                                                reinterpret_cast<float4*>(yp), n4, p);
            done = n4 * 4;
        }
    }
    if (done < n) {
        int64_t rem = n - done;
        int64_t need = (rem + threads - 1) / threads;
        int64_t maxb = (int64_t)sms * 8;
        int blocks = (int)(need < maxb ? need : maxb);
        ew_scalar_kernel<<<blocks, threads, 0, stream>>>(xp, yp, done, n, p);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

ext = load_inline(name="swish_ext6b", cpp_sources="torch::Tensor ew_forward(torch::Tensor x, double p_);",
                  cuda_sources=cuda_src, functions=["ew_forward"], extra_cuda_cflags=["-O3"], verbose=False)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.ew_forward(x.contiguous(), 0.0)

