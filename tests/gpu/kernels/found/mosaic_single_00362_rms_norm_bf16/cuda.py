import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include <stdint.h>

__device__ __forceinline__ float bf_lo(uint32_t u) { return __uint_as_float(u << 16); }
__device__ __forceinline__ float bf_hi(uint32_t u) { return __uint_as_float(u & 0xffff0000u); }

__device__ __forceinline__ uint32_t pack_bf2(float a, float b) {
    __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
    return *reinterpret_cast<uint32_t*>(&h);
}

// one warp per row, each lane handles VPL vectors of 8 bf16 (16 bytes)
template <int VPL>
__global__ void __launch_bounds__(256) rmsnorm_vec_kernel(const uint4* __restrict__ x,
                                                          const uint4* __restrict__ w,
                                                          uint4* __restrict__ y,
                                                          long rows, int D, float eps) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const int nvec = D >> 3;
    const uint4* xr = x + row * (long)nvec;
    uint4* yr = y + row * (long)nvec;

    uint4 v[VPL];
    float ss = 0.f;
#pragma unroll
    for (int k = 0; k < VPL; ++k) {
        int idx = lane + 32 * k;
        if (idx < nvec) {
            v[k] = __ldcs(xr + idx);
        } else {
            v[k] = make_uint4(0u, 0u, 0u, 0u);
        }
        uint32_t u[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
        for (int t = 0; t < 4; ++t) {
            float a = bf_lo(u[t]), b = bf_hi(u[t]);
            ss = fmaf(a, a, ss);
            ss = fmaf(b, b, ss);
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    const float r = rsqrtf(ss / (float)D + eps);

#pragma unroll
    for (int k = 0; k < VPL; ++k) {
        int idx = lane + 32 * k;
        if (idx < nvec) {
            uint4 wv = __ldg(w + idx);
            uint32_t u[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
            uint32_t wu[4] = {wv.x, wv.y, wv.z, wv.w};
            uint32_t o[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                float a = bf_lo(u[t]) * r * bf_lo(wu[t]);
                float b = bf_hi(u[t]) * r * bf_hi(wu[t]);
                o[t] = pack_bf2(a, b);
            }
            __stcs(yr + idx, make_uint4(o[0], o[1], o[2], o[3]));
        }
    }
}

// generic fallback: one block per row, any D, any alignment
__global__ void rmsnorm_generic_kernel(const __nv_bfloat16* __restrict__ x,
                                       const __nv_bfloat16* __restrict__ w,
                                       __nv_bfloat16* __restrict__ y,
                                       long rows, int D, float eps) {
    __shared__ float red[32];
    const long row = blockIdx.x;
    const __nv_bfloat16* xr = x + row * (long)D;
    __nv_bfloat16* yr = y + row * (long)D;
    float ss = 0.f;
    for (int i = threadIdx.x; i < D; i += blockDim.x) {
        float a = __bfloat162float(xr[i]);
        ss = fmaf(a, a, ss);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int nw = (blockDim.x + 31) >> 5;
    if (lane == 0) red[warp] = ss;
    __syncthreads();
    if (warp == 0) {
        float t = (lane < nw) ? red[lane] : 0.f;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
        if (lane == 0) red[0] = t;
    }
    __syncthreads();
    const float r = rsqrtf(red[0] / (float)D + eps);
    for (int i = threadIdx.x; i < D; i += blockDim.x) {
        float a = __bfloat162float(xr[i]);
        float b = __bfloat162float(w[i]);
        yr[i] = __float2bfloat16_rn(a * r * b);
    }
}

torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor w, double eps) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "cuda tensors expected");
    TORCH_CHECK(x.scalar_type() == at::kBFloat16 && w.scalar_type() == at::kBFloat16, "bf16 expected");
    auto y = torch::empty_like(x);
    const int D = (int)x.size(-1);
    TORCH_CHECK(w.numel() == D, "weight size mismatch");
    const long n = x.numel();
    if (n == 0 || D == 0) return y;
    const long rows = n / D;
    auto stream = at::cuda::getCurrentCUDAStream();
    const bool aligned = ((reinterpret_cast<uintptr_t>(x.data_ptr()) & 15) == 0) &&
                         ((reinterpret_cast<uintptr_t>(w.data_ptr()) & 15) == 0) &&
                         ((reinterpret_cast<uintptr_t>(y.data_ptr()) & 15) == 0);
    if (aligned && (D % 8) == 0 && D <= 1024) {
        const int threads = 256;
        const int rows_per_block = threads / 32;
        const long blocks = (rows + rows_per_block - 1) / rows_per_block;
        const int nvec = D / 8;
        const uint4* xp = reinterpret_cast<const uint4*>(x.data_ptr());
        const uint4* wp = reinterpret_cast<const uint4*>(w.data_ptr());
        uint4* yp = reinterpret_cast<uint4*>(y.data_ptr());
        if (nvec <= 32) {
            rmsnorm_vec_kernel<1><<<blocks, threads, 0, stream>>>(xp, wp, yp, rows, D, (float)eps);
        } else if (nvec <= 64) {
            rmsnorm_vec_kernel<2><<<blocks, threads, 0, stream>>>(xp, wp, yp, rows, D, (float)eps);
        } else {
            rmsnorm_vec_kernel<4><<<blocks, threads, 0, stream>>>(xp, wp, yp, rows, D, (float)eps);
        }
    } else {
        int threads = D >= 1024 ? 1024 : ((D + 31) / 32) * 32;
        rmsnorm_generic_kernel<<<rows, threads, 0, stream>>>(
            reinterpret_cast<const __nv_bfloat16*>(x.data_ptr()),
            reinterpret_cast<const __nv_bfloat16*>(w.data_ptr()),
            reinterpret_cast<__nv_bfloat16*>(y.data_ptr()), rows, D, (float)eps);
    }
    return y;
}
"""

cpp_src = "torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor w, double eps);"

_ext = load_inline(name="rmsnorm_bf16_ext_v1", cpp_sources=cpp_src, cuda_sources=cuda_src,
                   functions=["rmsnorm_forward"], extra_cuda_cflags=["-O3"], verbose=False)

dtype = torch.bfloat16


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.rms_weight = nn.Parameter(torch.ones(256) + 0.1 * torch.randn(256))
        self.to(dtype)

    def forward(self, x):
        x = x.contiguous()
        w = self.rms_weight.contiguous()
        return _ext.rmsnorm_forward(x, w, 1e-6)
