import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ float tanh_approx(float v) {
    float r;
    asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}

// loss = (1 - t) * x + softplus(-x),  t = sigmoid(y)
// softplus(-x) = max(-x, 0) + log(1 + exp(-|x|))
__device__ __forceinline__ float bce_one(float x, float y) {
    float t = fmaf(0.5f, tanh_approx(0.5f * y), 0.5f);
    float e = __expf(-fabsf(x));
    float sp = fmaxf(-x, 0.0f) + __logf(1.0f + e);
    return fmaf(1.0f - t, x, sp);
}

__device__ __forceinline__ unsigned int bce_pair(unsigned int xa, unsigned int ya) {
    __half2 xh = *reinterpret_cast<__half2*>(&xa);
    __half2 yh = *reinterpret_cast<__half2*>(&ya);
    float2 xf = __half22float2(xh);
    float2 yf = __half22float2(yh);
    __half2 r = __floats2half2_rn(bce_one(xf.x, yf.x), bce_one(xf.y, yf.y));
    return *reinterpret_cast<unsigned int*>(&r);
}

__device__ __forceinline__ uint4 bce_vec(uint4 a, uint4 b) {
    uint4 r;
    r.x = bce_pair(a.x, b.x);
    r.y = bce_pair(a.y, b.y);
    r.z = bce_pair(a.z, b.z);
    r.w = bce_pair(a.w, b.w);
    return r;
}

// Each block of 256 threads handles 1024 16-byte vectors; each thread 4 vectors (i, i+256, ...),
// all 8 loads issued before any compute so each thread keeps 128 bytes in flight.
#define VPT 4
__global__ void __launch_bounds__(256) bce_vec_kernel(const uint4* __restrict__ x, const uint4* __restrict__ y,
                                                      uint4* __restrict__ out, long nvec) {
    const long base = (long)blockIdx.x * (256L * VPT) + threadIdx.x;
    if (base + 256L * (VPT - 1) < nvec) {
        uint4 xa[VPT], ya[VPT];
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            xa[k] = __ldcs(x + base + 256L * k);
            ya[k] = __ldcs(y + base + 256L * k);
        }
#pragma unroll
        for (int k = 0; k < VPT; ++k) __stcs(out + base + 256L * k, bce_vec(xa[k], ya[k]));
    } else {
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const long i = base + 256L * k;
            if (i < nvec) {
                uint4 xv = __ldcs(x + i);
                uint4 yv = __ldcs(y + i);
                __stcs(out + i, bce_vec(xv, yv));
            }
        }
    }
}

__global__ void bce_scalar_kernel(const __half* __restrict__ x, const __half* __restrict__ y,
                                  __half* __restrict__ out, long start, long n) {
    long i = start + (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2half_rn(bce_one(__half2float(x[i]), __half2float(y[i])));
}

torch::Tensor bce_logits_sigmoid_target(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda());
    TORCH_CHECK(x.scalar_type() == at::kHalf && y.scalar_type() == at::kHalf);
    TORCH_CHECK(x.is_contiguous() && y.is_contiguous() && x.numel() == y.numel());
    auto out = torch::empty_like(x);
    long n = x.numel();
    if (n == 0) return out;
    auto stream = at::cuda::getCurrentCUDAStream();
    const __half* xp = reinterpret_cast<const __half*>(x.data_ptr<at::Half>());
    const __half* yp = reinterpret_cast<const __half*>(y.data_ptr<at::Half>());
    __half* op = reinterpret_cast<__half*>(out.data_ptr<at::Half>());
    long done = 0;
    bool aligned = ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp) |
                     reinterpret_cast<uintptr_t>(op)) & 15) == 0;
    if (aligned) {
        long nvec = n / 8;
        if (nvec > 0) {
            const int threads = 256;  // must match the kernel's 256 * VPT indexing
            long per_block = threads * VPT;
            long blocks = (nvec + per_block - 1) / per_block;
            bce_vec_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
                reinterpret_cast<const uint4*>(xp), reinterpret_cast<const uint4*>(yp),
                reinterpret_cast<uint4*>(op), nvec);
        }
        done = nvec * 8;
    }
    long rem = n - done;
    if (rem > 0) {
        const int threads = 256;
        long blocks = (rem + threads - 1) / threads;
        bce_scalar_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(xp, yp, op, done, n);
    }
    return out;
}
"""

ext = load_inline(
    name="bce_logits_none_fp16_ext_v2",
    cpp_sources="torch::Tensor bce_logits_sigmoid_target(torch::Tensor x, torch::Tensor y);",
    cuda_sources=cuda_src,
    functions=["bce_logits_sigmoid_target"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        # predictions and targets have the same shape in this task
        p = predictions.contiguous()
        t = targets.contiguous()
        return ext.bce_logits_sigmoid_target(p, t)
