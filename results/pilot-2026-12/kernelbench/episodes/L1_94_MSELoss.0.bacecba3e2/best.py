import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// Stage 1: every block accumulates sum((p - t)^2) over a grid-stride range in double and writes one partial.
template <int THREADS, bool VEC>
__global__ void __launch_bounds__(THREADS) mse_partial_kernel(const float* __restrict__ p, const float* __restrict__ t,
                                                             int64_t n, double* __restrict__ partial) {
    double acc0 = 0.0, acc1 = 0.0;
    const int64_t gtid = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    const int64_t gstride = (int64_t)gridDim.x * THREADS;
    int64_t done = 0;
    if (VEC) {
        const int64_t n4 = n / 4;
        const float4* p4 = reinterpret_cast<const float4*>(p);
        const float4* t4 = reinterpret_cast<const float4*>(t);
        int64_t i = gtid;
        for (; i + gstride < n4; i += 2 * gstride) {
            float4 a = __ldcs(p4 + i), b = __ldcs(t4 + i);
            float4 c = __ldcs(p4 + i + gstride), d = __ldcs(t4 + i + gstride);
            double d0 = (double)a.x - (double)b.x, d1 = (double)a.y - (double)b.y;
            double d2 = (double)a.z - (double)b.z, d3 = (double)a.w - (double)b.w;
            double e0 = (double)c.x - (double)d.x, e1 = (double)c.y - (double)d.y;
            double e2 = (double)c.z - (double)d.z, e3 = (double)c.w - (double)d.w;
            acc0 = fma(d0, d0, acc0); acc1 = fma(d1, d1, acc1); acc0 = fma(d2, d2, acc0); acc1 = fma(d3, d3, acc1);
            acc0 = fma(e0, e0, acc0); acc1 = fma(e1, e1, acc1); acc0 = fma(e2, e2, acc0); acc1 = fma(e3, e3, acc1);
        }
        for (; i < n4; i += gstride) {
            float4 a = __ldcs(p4 + i), b = __ldcs(t4 + i);
            double d0 = (double)a.x - (double)b.x, d1 = (double)a.y - (double)b.y;
            double d2 = (double)a.z - (double)b.z, d3 = (double)a.w - (double)b.w;
            acc0 = fma(d0, d0, acc0); acc1 = fma(d1, d1, acc1); acc0 = fma(d2, d2, acc0); acc1 = fma(d3, d3, acc1);
        }
        done = n4 * 4;
    }
    for (int64_t i = done + gtid; i < n; i += gstride) {
        double d0 = (double)p[i] - (double)t[i];
        acc0 = fma(d0, d0, acc0);
    }
    double acc = acc0 + acc1;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    __shared__ double sm[THREADS / 32];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) sm[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        acc = (lane < THREADS / 32) ? sm[lane] : 0.0;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
        if (lane == 0) partial[blockIdx.x] = acc;
    }
}

// Stage 2: one block sums the partials (fixed order -> deterministic) and writes the mean.
__global__ void __launch_bounds__(1024) mse_final_kernel(const double* __restrict__ partial, int nparts, int64_t n,
                                                        float* __restrict__ out) {
    double acc = 0.0;
    for (int i = threadIdx.x; i < nparts; i += 1024) acc += partial[i];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    __shared__ double sm[32];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) sm[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        acc = sm[lane];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
        if (lane == 0) out[0] = (float)(acc / (double)n);
    }
}

torch::Tensor mse_fwd(torch::Tensor p, torch::Tensor t) {
    TORCH_CHECK(p.is_cuda() && t.is_cuda() && p.scalar_type() == torch::kFloat32 && t.scalar_type() == torch::kFloat32,
                "expected float32 CUDA tensors");
    TORCH_CHECK(p.is_contiguous() && t.is_contiguous() && p.numel() == t.numel(), "expected contiguous same-size tensors");
    auto out = torch::empty({}, p.options());
    const int64_t n = p.numel();
    auto st = at::cuda::getCurrentCUDAStream();
    int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    constexpr int THREADS = 512;
    int64_t need = (n / 4 + THREADS - 1) / THREADS;
    int64_t maxb = (int64_t)sms * 4;
    int blocks = (int)(need < maxb ? need : maxb);
    if (blocks < 1) blocks = 1;
    auto partial = torch::empty({blocks}, p.options().dtype(torch::kFloat64));
    const float* pp = p.data_ptr<float>();
    const float* tp = t.data_ptr<float>();
    bool vec = ((reinterpret_cast<uintptr_t>(pp) | reinterpret_cast<uintptr_t>(tp)) & 15) == 0;
    if (vec) mse_partial_kernel<THREADS, true><<<blocks, THREADS, 0, st>>>(pp, tp, n, partial.data_ptr<double>());
    else     mse_partial_kernel<THREADS, false><<<blocks, THREADS, 0, st>>>(pp, tp, n, partial.data_ptr<double>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    mse_final_kernel<<<1, 1024, 0, st>>>(partial.data_ptr<double>(), blocks, n, out.data_ptr<float>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

ext = load_inline(name="mse_ext6", cpp_sources="torch::Tensor mse_fwd(torch::Tensor p, torch::Tensor t);",
                  cuda_sources=cuda_src, functions=["mse_fwd"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return ext.mse_fwd(predictions.contiguous(), targets.contiguous())
