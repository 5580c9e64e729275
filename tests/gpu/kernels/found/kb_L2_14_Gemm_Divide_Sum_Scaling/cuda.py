import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# sum_j (x @ W^T)[i, j] = sum_k x[i, k] * (sum_j W[j, k]), so
#   out[i] = scaling * 0.5 * dot(x[i, :], colsum(W)).
# colsum(W) is recomputed from the current weight on every forward (no caching);
# all accumulation is done in float64, which is more accurate than the float32 reference.
cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// partial[s, k] = sum_{j in split s} W[j, k]   (W is H x I, row-major)
__global__ void __launch_bounds__(256) colsum_partial_kernel(const float* __restrict__ W, double* __restrict__ partial,
                                                            int64_t H, int64_t I, int64_t rows_per_split) {
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t s = blockIdx.y;
    if (k >= I) return;
    const int64_t j0 = s * rows_per_split;
    int64_t j1 = j0 + rows_per_split; if (j1 > H) j1 = H;
    const float* p = W + k;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    int64_t j = j0;
    for (; j + 3 < j1; j += 4) {
        float v0 = __ldcs(p + j * I), v1 = __ldcs(p + (j + 1) * I), v2 = __ldcs(p + (j + 2) * I), v3 = __ldcs(p + (j + 3) * I);
        a0 += (double)v0; a1 += (double)v1; a2 += (double)v2; a3 += (double)v3;
    }
    for (; j < j1; ++j) a0 += (double)__ldcs(p + j * I);
    partial[s * I + k] = (a0 + a1) + (a2 + a3);
}

// Vectorized variant (I % 4 == 0, W 16-byte aligned): each thread owns 4 adjacent columns (one float4 per row)
// and keeps 8 row loads in flight, so the single pass over W runs near DRAM bandwidth.
__global__ void __launch_bounds__(256) colsum_partial_v4_kernel(const float* __restrict__ W, double* __restrict__ partial,
                                                               int64_t H, int64_t I, int64_t rows_per_split) {
    const int64_t I4 = I >> 2;
    const int64_t c4 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t s = blockIdx.y;
    if (c4 >= I4) return;
    const int64_t j0 = s * rows_per_split;
    int64_t j1 = j0 + rows_per_split; if (j1 > H) j1 = H;
    const float4* p = reinterpret_cast<const float4*>(W) + c4;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    int64_t j = j0;
    for (; j + 7 < j1; j += 8) {
        float4 v[8];
#pragma unroll
        for (int u = 0; u < 8; ++u) v[u] = __ldcs(p + (j + u) * I4);
#pragma unroll
        for (int u = 0; u < 8; ++u) {
            a0 += (double)v[u].x; a1 += (double)v[u].y; a2 += (double)v[u].z; a3 += (double)v[u].w;
        }
    }
    for (; j < j1; ++j) {
        float4 v = __ldcs(p + j * I4);
        a0 += (double)v.x; a1 += (double)v.y; a2 += (double)v.z; a3 += (double)v.w;
    }
    double* o = partial + s * I + 4 * c4;
    o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3;
}

// wsum[k] = sum_s partial[s, k]
__global__ void __launch_bounds__(256) colsum_final_kernel(const double* __restrict__ partial, double* __restrict__ wsum,
                                                          int64_t S, int64_t I) {
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= I) return;
    double a = 0.0;
    for (int64_t s = 0; s < S; ++s) a += partial[s * I + k];
    wsum[k] = a;
}

// wsum[k] = sum_s partial[s, k] with a 32 x 8 block: 32 columns, 8 threads splitting s; shared-memory combine.
__global__ void __launch_bounds__(256) colsum_final2_kernel(const double* __restrict__ partial, double* __restrict__ wsum,
                                                           int64_t S, int64_t I) {
    __shared__ double sm[8][33];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int64_t k = (int64_t)blockIdx.x * 32 + tx;
    double a0 = 0.0, a1 = 0.0;
    if (k < I) {
        int64_t s = ty;
#pragma unroll 4
        for (; s + 8 < S; s += 16) {
            a0 += partial[s * I + k];
            a1 += partial[(s + 8) * I + k];
        }
        for (; s < S; s += 8) a0 += partial[s * I + k];
    }
    sm[ty][tx] = a0 + a1;
    __syncthreads();
    if (ty == 0 && k < I) {
        double a = sm[0][tx];
#pragma unroll
        for (int r = 1; r < 8; ++r) a += sm[r][tx];
        wsum[k] = a;
    }
}

// Vectorized gemv (I % 4 == 0, x 16-byte aligned): float4 of x and two double2 of wsum per step, 4 steps in flight.
__global__ void __launch_bounds__(256) gemv_v4_kernel(const float* __restrict__ x, const double* __restrict__ wsum,
                                                     float* __restrict__ out, int64_t B, int64_t I, double factor) {
    __shared__ double sm[8];
    const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;
    const int64_t I4 = I >> 2;
    const double2* w2 = reinterpret_cast<const double2*>(wsum);
    for (int64_t i = blockIdx.x; i < B; i += gridDim.x) {
        const float4* xr = reinterpret_cast<const float4*>(x + i * I);
        double a0 = 0.0, a1 = 0.0;
#pragma unroll 4
        for (int64_t k = tid; k < I4; k += 256) {
            const float4 v = __ldcs(xr + k);
            const double2 wa = w2[2 * k], wb = w2[2 * k + 1];
            a0 = fma((double)v.x, wa.x, a0);
            a1 = fma((double)v.y, wa.y, a1);
            a0 = fma((double)v.z, wb.x, a0);
            a1 = fma((double)v.w, wb.y, a1);
        }
        double a = a0 + a1;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) a += __shfl_xor_sync(0xffffffffu, a, off);
        if (lane == 0) sm[wid] = a;
        __syncthreads();
        if (wid == 0) {
            a = (lane < 8) ? sm[lane] : 0.0;
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) a += __shfl_xor_sync(0xffffffffu, a, off);
            if (lane == 0) out[i] = (float)(a * factor);
        }
        __syncthreads();
    }
}

// out[i] = factor * sum_k x[i, k] * wsum[k]; one block per row.
__global__ void __launch_bounds__(256) gemv_kernel(const float* __restrict__ x, const double* __restrict__ wsum,
                                                  float* __restrict__ out, int64_t B, int64_t I, double factor) {
    __shared__ double sm[8];
    const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;
    for (int64_t i = blockIdx.x; i < B; i += gridDim.x) {
        const float* xr = x + i * I;
        double a0 = 0.0, a1 = 0.0;
        int64_t k = tid;
        for (; k + 256 < I; k += 512) {
            a0 = fma((double)xr[k], wsum[k], a0);
            a1 = fma((double)xr[k + 256], wsum[k + 256], a1);
        }
        for (; k < I; k += 256) a0 = fma((double)xr[k], wsum[k], a0);
        double a = a0 + a1;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) a += __shfl_xor_sync(0xffffffffu, a, off);
        if (lane == 0) sm[wid] = a;
        __syncthreads();
        if (wid == 0) {
            a = (lane < 8) ? sm[lane] : 0.0;
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) a += __shfl_xor_sync(0xffffffffu, a, off);
            if (lane == 0) out[i] = (float)(a * factor);
        }
        __syncthreads();
    }
}

torch::Tensor gemm_div_sum_scale(torch::Tensor x, torch::Tensor W, double scaling) {
    TORCH_CHECK(x.is_cuda() && W.is_cuda() && x.scalar_type() == torch::kFloat32 && W.scalar_type() == torch::kFloat32,
                "expected float32 CUDA tensors");
    TORCH_CHECK(x.is_contiguous() && W.is_contiguous() && x.dim() == 2 && W.dim() == 2 && x.size(1) == W.size(1),
                "shape mismatch");
    const int64_t B = x.size(0), I = x.size(1), H = W.size(0);
    auto out = torch::empty({B, 1}, x.options());
    if (B == 0) return out;
    auto st = at::cuda::getCurrentCUDAStream();
    auto dopt = x.options().dtype(torch::kFloat64);
    auto wsum = torch::empty({I > 0 ? I : 1}, dopt);
    if (I > 0) {
        int64_t S = H < 128 ? (H > 0 ? H : 1) : 128;
        int64_t rows_per_split = (H + S - 1) / S;
        if (rows_per_split < 1) rows_per_split = 1;
        S = (H + rows_per_split - 1) / rows_per_split;
        if (S < 1) S = 1;
        auto partial = torch::empty({S, I}, dopt);
        const bool vec = (I % 4 == 0) && ((reinterpret_cast<uintptr_t>(W.data_ptr<float>()) & 15) == 0);
        if (vec) {
            dim3 g1((unsigned)((I / 4 + 255) / 256), (unsigned)S);
            colsum_partial_v4_kernel<<<g1, 256, 0, st>>>(W.data_ptr<float>(), partial.data_ptr<double>(), H, I, rows_per_split);
        } else {
            dim3 g1((unsigned)((I + 255) / 256), (unsigned)S);
            colsum_partial_kernel<<<g1, 256, 0, st>>>(W.data_ptr<float>(), partial.data_ptr<double>(), H, I, rows_per_split);
        }
        C10_CUDA_KERNEL_LAUNCH_CHECK();
        colsum_final2_kernel<<<(unsigned)((I + 31) / 32), 256, 0, st>>>(partial.data_ptr<double>(), wsum.data_ptr<double>(), S, I);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
    int64_t gb = B < 65535 ? B : 65535;
    const bool xvec = (I % 4 == 0) && ((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) & 15) == 0);
    if (xvec)
        gemv_v4_kernel<<<(unsigned)gb, 256, 0, st>>>(x.data_ptr<float>(), wsum.data_ptr<double>(), out.data_ptr<float>(), B, I,
                                                     0.5 * scaling);
    else
        gemv_kernel<<<(unsigned)gb, 256, 0, st>>>(x.data_ptr<float>(), wsum.data_ptr<double>(), out.data_ptr<float>(), B, I,
                                                  0.5 * scaling);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

ext = load_inline(name="gemm_div_sum_ext7",
                  cpp_sources="torch::Tensor gemm_div_sum_scale(torch::Tensor x, torch::Tensor W, double scaling);",
                  cuda_sources=cuda_src, functions=["gemm_div_sum_scale"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return ext.gemm_div_sum_scale(x.contiguous(), self.weight.contiguous(), float(self.scaling_factor))
