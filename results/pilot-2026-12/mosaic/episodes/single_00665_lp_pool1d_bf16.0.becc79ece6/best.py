import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# lp_pool1d(norm_type=2, kernel_size=4, stride=4) on bf16, reproducing PyTorch's rounding steps:
#   sq = bf16(x*x); avg = bf16((sq0+sq1+sq2+sq3)/4) (float accumulation); y = bf16(sqrt(bf16(avg*4)))
cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include <stdint.h>

__device__ __forceinline__ float rbf(float v) {  // round to bf16 and back
    return __bfloat162float(__float2bfloat16_rn(v));
}

__device__ __forceinline__ float window4(float a, float b, float c, float d) {
    float s = 0.f;
    s += rbf(a * a);
    s += rbf(b * b);
    s += rbf(c * c);
    s += rbf(d * d);
    float avg = rbf(s / 4.0f);
    float m = rbf(avg * 4.0f);
    return sqrtf(m);
}

__device__ __forceinline__ float2 unpack2(uint32_t w) {
    __nv_bfloat162 h = *reinterpret_cast<__nv_bfloat162*>(&w);
    return __bfloat1622float2(h);
}

__device__ __forceinline__ uint32_t pack2(float a, float b) {
    __nv_bfloat162 r = __floats2bfloat162_rn(a, b);
    return *reinterpret_cast<uint32_t*>(&r);
}

// Fast path: L % 4 == 0 so windows tile the flat buffer; output o <- input [4o, 4o+4).
// Each unit = 8 inputs (1 x uint4, 16 B) -> 2 outputs (1 x uint32). Consecutive threads take
// consecutive units, so every warp load is 512 contiguous bytes and every warp store 128
// contiguous bytes (fully coalesced). Each thread issues all UNROLL loads before computing.
template <int UNROLL>
__global__ void __launch_bounds__(256) lp_pool_vec_kernel(const uint4* __restrict__ x, uint32_t* __restrict__ y, long nunits) {
    long base = (long)blockIdx.x * (256L * UNROLL) + threadIdx.x;
    uint4 a[UNROLL];
    #pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        long i = base + (long)u * 256;
        if (i < nunits) a[u] = __ldg(x + i);
    }
    #pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        long i = base + (long)u * 256;
        if (i < nunits) {
            float2 a0 = unpack2(a[u].x), a1 = unpack2(a[u].y), a2 = unpack2(a[u].z), a3 = unpack2(a[u].w);
            float o0 = window4(a0.x, a0.y, a1.x, a1.y);
            float o1 = window4(a2.x, a2.y, a3.x, a3.y);
            y[i] = pack2(o0, o1);
        }
    }
}

// Generic path: any L; one output per thread, outputs [start, nout).
__global__ void lp_pool_scalar_kernel(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y,
                                      long start, long nout, long L, long Lout) {
    long o = start + (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= nout) return;
    long row = o / Lout;
    long j = o - row * Lout;
    const __nv_bfloat16* p = x + row * L + 4 * j;
    float v = window4(__bfloat162float(p[0]), __bfloat162float(p[1]), __bfloat162float(p[2]), __bfloat162float(p[3]));
    y[o] = __float2bfloat16_rn(v);
}

torch::Tensor lp_pool1d_bf16(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kBFloat16, "expected CUDA bf16 tensor");
    TORCH_CHECK(x.dim() >= 1, "need at least 1 dim");
    x = x.contiguous();
    long L = x.size(-1);
    TORCH_CHECK(L >= 4, "input length must be >= kernel_size");
    long Lout = (L - 4) / 4 + 1;
    std::vector<int64_t> oshape(x.sizes().begin(), x.sizes().end());
    oshape.back() = Lout;
    auto y = torch::empty(oshape, x.options());
    long nout = y.numel();
    if (nout == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    const __nv_bfloat16* xp = reinterpret_cast<const __nv_bfloat16*>(x.data_ptr<at::BFloat16>());
    __nv_bfloat16* yp = reinterpret_cast<__nv_bfloat16*>(y.data_ptr<at::BFloat16>());
    long done = 0;
    bool aligned = ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) && ((reinterpret_cast<uintptr_t>(yp) & 3) == 0);
    if ((L % 4 == 0) && aligned) {
        long nunits = nout / 2;
        if (nunits > 0) {
            const int threads = 256;
            const int UNROLL = 4;
            long per_block = (long)threads * UNROLL;
            long blocks = (nunits + per_block - 1) / per_block;
            lp_pool_vec_kernel<UNROLL><<<(unsigned int)blocks, threads, 0, stream>>>(
                reinterpret_cast<const uint4*>(xp), reinterpret_cast<uint32_t*>(yp), nunits);
            C10_CUDA_KERNEL_LAUNCH_CHECK();
        }
        done = nunits * 2;
    }
    long rem = nout - done;
    if (rem > 0) {
        const int threads = 256;
        long blocks = (rem + threads - 1) / threads;
        lp_pool_scalar_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(xp, yp, done, nout, L, Lout);
    }
    return y;
}
"""

ext = load_inline(
    name="lp_pool1d_bf16_ext2",
    cpp_sources="torch::Tensor lp_pool1d_bf16(torch::Tensor x);",
    cuda_sources=cuda_src,
    functions=["lp_pool1d_bf16"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.lp_pool1d_bf16(x.contiguous())
