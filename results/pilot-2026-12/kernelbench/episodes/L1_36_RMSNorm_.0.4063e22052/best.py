import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// x viewed as (B, C, S); normalize over C for every (b, s).
// One thread per (b, s): adjacent threads -> adjacent s, so every channel load is coalesced.
// Channels are cached in registers (C <= CT), so x is read exactly once.
template <int CT>
__global__ void __launch_bounds__(256) rmsnorm_reg_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                         int64_t B, int C, int64_t S, float eps, float invC) {
    const int64_t total = B * S;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (int64_t)gridDim.x * blockDim.x) {
        const int64_t b = t / S;
        const int64_t s = t - b * S;
        const float* p = x + b * (int64_t)C * S + s;
        float* q = y + b * (int64_t)C * S + s;
        float v[CT];
#pragma unroll
        for (int c = 0; c < CT; ++c) v[c] = (c < C) ? __ldcs(p + (int64_t)c * S) : 0.0f;
        float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
#pragma unroll
        for (int c = 0; c < CT; c += 4) {
            a0 = fmaf(v[c], v[c], a0);
            if (c + 1 < CT) a1 = fmaf(v[c + 1], v[c + 1], a1);
            if (c + 2 < CT) a2 = fmaf(v[c + 2], v[c + 2], a2);
            if (c + 3 < CT) a3 = fmaf(v[c + 3], v[c + 3], a3);
        }
        const float ss = (a0 + a1) + (a2 + a3);
        const float rms = sqrtf(ss * invC + eps);
#pragma unroll
        for (int c = 0; c < CT; ++c) if (c < C) __stcs(q + (int64_t)c * S, v[c] / rms);
    }
}

// General fallback for large C: two passes over the channels (second pass mostly hits cache).
__global__ void __launch_bounds__(256) rmsnorm_loop_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                          int64_t B, int C, int64_t S, float eps, float invC) {
    const int64_t total = B * S;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (int64_t)gridDim.x * blockDim.x) {
        const int64_t b = t / S;
        const int64_t s = t - b * S;
        const float* p = x + b * (int64_t)C * S + s;
        float* q = y + b * (int64_t)C * S + s;
        float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
        int c = 0;
        for (; c + 3 < C; c += 4) {
            float v0 = p[(int64_t)c * S], v1 = p[(int64_t)(c + 1) * S], v2 = p[(int64_t)(c + 2) * S], v3 = p[(int64_t)(c + 3) * S];
            a0 = fmaf(v0, v0, a0); a1 = fmaf(v1, v1, a1); a2 = fmaf(v2, v2, a2); a3 = fmaf(v3, v3, a3);
        }
        for (; c < C; ++c) { float v0 = p[(int64_t)c * S]; a0 = fmaf(v0, v0, a0); }
        const float ss = (a0 + a1) + (a2 + a3);
        const float rms = sqrtf(ss * invC + eps);
        for (c = 0; c < C; ++c) q[(int64_t)c * S] = p[(int64_t)c * S] / rms;
    }
}

torch::Tensor rmsnorm_fwd(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.dim() >= 2,
                "expected contiguous float32 CUDA tensor with >= 2 dims");
    auto y = torch::empty_like(x);
    const int64_t B = x.size(0);
    const int64_t C = x.size(1);
    const int64_t S = (B * C) > 0 ? x.numel() / (B * C) : 0;
    const int64_t total = B * S;
    if (total == 0 || C == 0) return y;
    auto st = at::cuda::getCurrentCUDAStream();
    int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int threads = 256;
    int64_t need = (total + threads - 1) / threads;
    const float invC = (float)(1.0 / (double)C);
    const float e = (float)eps;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    if (C <= 16) {
        int64_t maxb = (int64_t)sms * 32; int blocks = (int)(need < maxb ? need : maxb);
        rmsnorm_reg_kernel<16><<<blocks, threads, 0, st>>>(xp, yp, B, (int)C, S, e, invC);
    } else if (C <= 32) {
        int64_t maxb = (int64_t)sms * 32; int blocks = (int)(need < maxb ? need : maxb);
        rmsnorm_reg_kernel<32><<<blocks, threads, 0, st>>>(xp, yp, B, (int)C, S, e, invC);
    } else if (C <= 64) {
        int64_t maxb = (int64_t)sms * 32; int blocks = (int)(need < maxb ? need : maxb);
        rmsnorm_reg_kernel<64><<<blocks, threads, 0, st>>>(xp, yp, B, (int)C, S, e, invC);
    } else {
        int64_t maxb = (int64_t)sms * 32; int blocks = (int)(need < maxb ? need : maxb);
        rmsnorm_loop_kernel<<<blocks, threads, 0, st>>>(xp, yp, B, (int)C, S, e, invC);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

ext = load_inline(name="rmsnorm_ext6", cpp_sources="torch::Tensor rmsnorm_fwd(torch::Tensor x, double eps);",
                  cuda_sources=cuda_src, functions=["rmsnorm_fwd"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.rmsnorm_fwd(x.contiguous(), float(self.eps))
