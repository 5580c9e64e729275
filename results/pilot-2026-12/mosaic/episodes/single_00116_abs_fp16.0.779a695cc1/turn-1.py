import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_fp16.h>
#include <stdint.h>

// abs(fp16) == clear the sign bit (NaN stays NaN, -0 -> +0, -inf -> +inf), as torch.abs.
// Vectorized path: 16-byte chunks (8 halves), UNROLL independent 16-byte loads per thread,
// all issued before any store. Plain (default-cached) loads and stores: the previous version
// used streaming (.cs) hints and ran ~11% slower than eager, which sits at the bandwidth floor.
#define UNROLL 4
__global__ void __launch_bounds__(256) abs_vec_kernel(const uint4* __restrict__ x, uint4* __restrict__ y, long nvec) {
    const long bd = blockDim.x;
    const long base = (long)blockIdx.x * (bd * UNROLL) + threadIdx.x;
    const unsigned int M = 0x7fff7fffu;
    uint4 v[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) {
        const long i = base + k * bd;
        if (i < nvec) v[k] = x[i];
    }
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) {
        const long i = base + k * bd;
        if (i < nvec) {
            uint4 a = v[k];
            a.x &= M; a.y &= M; a.z &= M; a.w &= M;
            y[i] = a;
        }
    }
}

// Scalar path for tails / unaligned data.
__global__ void abs_scalar_kernel(const unsigned short* __restrict__ x, unsigned short* __restrict__ y, long start, long n) {
    long i = start + (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] & (unsigned short)0x7fff;
}

torch::Tensor abs_fp16(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kHalf && x.is_contiguous());
    auto y = torch::empty_like(x);
    long n = x.numel();
    if (n == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    const unsigned short* xp = reinterpret_cast<const unsigned short*>(x.data_ptr<at::Half>());
    unsigned short* yp = reinterpret_cast<unsigned short*>(y.data_ptr<at::Half>());
    long done = 0;
    bool aligned = ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0;
    if (aligned) {
        long nvec = n / 8;
        if (nvec > 0) {
            const int threads = 256;
            long per_block = (long)threads * UNROLL;
            long blocks = (nvec + per_block - 1) / per_block;
            abs_vec_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
                reinterpret_cast<const uint4*>(xp), reinterpret_cast<uint4*>(yp), nvec);
        }
        done = nvec * 8;
    }
    long rem = n - done;
    if (rem > 0) {
        const int threads = 256;
        long blocks = (rem + threads - 1) / threads;
        abs_scalar_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(xp, yp, done, n);
    }
    return y;
}
"""

ext = load_inline(
    name="abs_fp16_ext_v2",
    cpp_sources="torch::Tensor abs_fp16(torch::Tensor x);",
    cuda_sources=cuda_src,
    functions=["abs_fp16"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.abs_fp16(x.contiguous())
