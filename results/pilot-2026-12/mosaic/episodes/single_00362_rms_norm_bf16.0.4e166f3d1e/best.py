import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# RMSNorm (bf16) that reproduces the reference's bf16 rounding chain exactly:
#   sq   = bf16(x*x)                      (x.pow(2))
#   mean = bf16(sum_fp32(sq) * (1/D))     (mean: fp32 accumulate, scale, round)
#   t    = bf16(mean + 1e-6)              (+ eps)
#   r    = bf16(rsqrtf(t))                (rsqrt)
#   y1   = bf16(x * r)                    (x * rsqrt)
#   y    = bf16(y1 * w)                   (* weight)
# The fp32 row sum uses the same association as torch's CUDA mean reduction for
# contiguous rows (32 lanes, 4-wide vector accumulators per lane, accumulators
# combined in order, then a warp shuffle-down tree with offsets 16..1), so the
# bf16 rounding of the mean matches the reference.
cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include <stdint.h>

__device__ __forceinline__ float bf_lo(uint32_t u) { return __uint_as_float(u << 16); }
__device__ __forceinline__ float bf_hi(uint32_t u) { return __uint_as_float(u & 0xffff0000u); }
__device__ __forceinline__ float rbf(float f) { return __bfloat162float(__float2bfloat16_rn(f)); }

__device__ __forceinline__ uint32_t pack_bf2(float a, float b) {
    __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
    return *reinterpret_cast<uint32_t*>(&h);
}

__device__ __forceinline__ float row_scale(float total, float factor, float eps) {
    const float mean = rbf(total * factor);
    const float t = rbf(mean + eps);
    return rbf(rsqrtf(t));
}

// One warp per row. D % 4 == 0; each lane owns 4-element (8-byte) vectors
// lane, lane+32, ..., keeping them in registers (NV vectors max per lane).
template <int NV>
__global__ void __launch_bounds__(256) rmsnorm_vec4_kernel(const uint2* __restrict__ x,
                                                           const uint2* __restrict__ w,
                                                           uint2* __restrict__ y,
                                                           long rows, int nvec, float factor, float eps) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const uint2* xr = x + row * (long)nvec;
    uint2* yr = y + row * (long)nvec;

    uint2 v[NV];
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
#pragma unroll
    for (int k = 0; k < NV; ++k) {
        const int idx = lane + 32 * k;
        if (idx < nvec) {
            v[k] = __ldcs(xr + idx);
            float e0 = bf_lo(v[k].x), e1 = bf_hi(v[k].x), e2 = bf_lo(v[k].y), e3 = bf_hi(v[k].y);
            a0 = a0 + rbf(e0 * e0);
            a1 = a1 + rbf(e1 * e1);
            a2 = a2 + rbf(e2 * e2);
            a3 = a3 + rbf(e3 * e3);
        } else {
            v[k] = make_uint2(0u, 0u);
        }
    }
    float s = ((a0 + a1) + a2) + a3;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s = s + __shfl_down_sync(0xffffffffu, s, o);
    s = __shfl_sync(0xffffffffu, s, 0);
    const float r = row_scale(s, factor, eps);

#pragma unroll
    for (int k = 0; k < NV; ++k) {
        const int idx = lane + 32 * k;
        if (idx < nvec) {
            const uint2 wv = __ldg(w + idx);
            uint2 o;
            o.x = pack_bf2(rbf(bf_lo(v[k].x) * r) * bf_lo(wv.x), rbf(bf_hi(v[k].x) * r) * bf_hi(wv.x));
            o.y = pack_bf2(rbf(bf_lo(v[k].y) * r) * bf_lo(wv.y), rbf(bf_hi(v[k].y) * r) * bf_hi(wv.y));
            __stcs(yr + idx, o);
        }
    }
}

// Generic fallback: one warp per row, any D, any alignment (re-reads x).
__global__ void __launch_bounds__(256) rmsnorm_generic_kernel(const __nv_bfloat16* __restrict__ x,
                                                              const __nv_bfloat16* __restrict__ w,
                                                              __nv_bfloat16* __restrict__ y,
                                                              long rows, int D, float factor, float eps) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const __nv_bfloat16* xr = x + row * (long)D;
    __nv_bfloat16* yr = y + row * (long)D;
    float s = 0.f;
    for (int i = lane; i < D; i += 32) {
        const float a = __bfloat162float(xr[i]);
        s = s + rbf(a * a);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s = s + __shfl_down_sync(0xffffffffu, s, o);
    s = __shfl_sync(0xffffffffu, s, 0);
    const float r = row_scale(s, factor, eps);
    for (int i = lane; i < D; i += 32) {
        const float a = __bfloat162float(xr[i]);
        const float b = __bfloat162float(w[i]);
        yr[i] = __float2bfloat16_rn(rbf(a * r) * b);
    }
}

torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor w, double eps) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "cuda tensors expected");
    TORCH_CHECK(x.scalar_type() == at::kBFloat16 && w.scalar_type() == at::kBFloat16, "bf16 expected");
    TORCH_CHECK(x.is_contiguous() && w.is_contiguous(), "contiguous tensors expected");
    auto y = torch::empty_like(x);
    const int D = (int)x.size(-1);
    TORCH_CHECK(w.numel() == D, "weight size mismatch");
    const long n = x.numel();
    if (n == 0 || D == 0) return y;
    const long rows = n / D;
    // same scale factor as torch's mean: float(num_outputs) / numel
    const float factor = static_cast<float>(rows) / static_cast<float>(n);
    const float feps = (float)eps;
    auto stream = at::cuda::getCurrentCUDAStream();
    const bool aligned = ((reinterpret_cast<uintptr_t>(x.data_ptr()) & 7) == 0) &&
                         ((reinterpret_cast<uintptr_t>(w.data_ptr()) & 7) == 0) &&
                         ((reinterpret_cast<uintptr_t>(y.data_ptr()) & 7) == 0);
    const int threads = 256;
    const int rows_per_block = threads / 32;
    const long blocks = (rows + rows_per_block - 1) / rows_per_block;
    if (aligned && (D % 4) == 0 && D <= 1024) {
        const int nvec = D / 4;
        const uint2* xp = reinterpret_cast<const uint2*>(x.data_ptr());
        const uint2* wp = reinterpret_cast<const uint2*>(w.data_ptr());
        uint2* yp = reinterpret_cast<uint2*>(y.data_ptr());
        if (nvec <= 32) {
            rmsnorm_vec4_kernel<1><<<blocks, threads, 0, stream>>>(xp, wp, yp, rows, nvec, factor, feps);
        } else if (nvec <= 64) {
            rmsnorm_vec4_kernel<2><<<blocks, threads, 0, stream>>>(xp, wp, yp, rows, nvec, factor, feps);
        } else if (nvec <= 128) {
            rmsnorm_vec4_kernel<4><<<blocks, threads, 0, stream>>>(xp, wp, yp, rows, nvec, factor, feps);
        } else {
            rmsnorm_vec4_kernel<8><<<blocks, threads, 0, stream>>>(xp, wp, yp, rows, nvec, factor, feps);
        }
    } else {
        rmsnorm_generic_kernel<<<blocks, threads, 0, stream>>>(
            reinterpret_cast<const __nv_bfloat16*>(x.data_ptr()),
            reinterpret_cast<const __nv_bfloat16*>(w.data_ptr()),
            reinterpret_cast<__nv_bfloat16*>(y.data_ptr()), rows, D, factor, feps);
    }
    return y;
}
"""

cpp_src = "torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor w, double eps);"

_ext = load_inline(name="rmsnorm_bf16_ext_v2", cpp_sources=cpp_src, cuda_sources=cuda_src,
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
