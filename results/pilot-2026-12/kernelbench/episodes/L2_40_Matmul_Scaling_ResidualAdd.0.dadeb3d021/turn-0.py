import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# y = t * s + t,  t = x @ W^T + b   (FP32 SIMT GEMM, FP32 accumulation; no TF32 / tensor cores)
cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define BM 128
#define BN 128
#define BK 8
#define LDS 132   // padded leading dim (multiple of 4 keeps float4 alignment; avoids store bank conflicts)

// C[m, n] = sum_k A[m, k] * B[n, k]; A: M x K row-major (x), B: N x K row-major (W).
// 256 threads, each computes an 8x8 micro-tile (rows ty*4+{0..3}, 64+ty*4+{0..3}; cols likewise with tx).
// Double-buffered shared memory with register prefetch of the next K-tile.
template <bool VEC>
__global__ void __launch_bounds__(256, 2) sgemm_bias_scale_res_kernel(
        const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ bias,
        float* __restrict__ C, int M, int N, int K, float s) {
    __shared__ __align__(16) float As[2][BK][LDS];
    __shared__ __align__(16) float Bs[2][BK][LDS];
    const int tid = threadIdx.x;
    const int tx = tid & 15, ty = tid >> 4;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

    const int lrow = tid >> 1;        // 0..127
    const int lk = (tid & 1) * 4;     // 0 or 4
    const bool aok = (bm + lrow) < M;
    const bool bok = (bn + lrow) < N;
    const float* Ap = A + (int64_t)(aok ? (bm + lrow) : 0) * K + lk;
    const float* Bp = B + (int64_t)(bok ? (bn + lrow) : 0) * K + lk;

    float4 ra, rb;
    auto gload = [&](int k0) {
        if (VEC) {
            const bool kin = (k0 + lk) < K;     // K % 4 == 0 -> whole float4 in or out
            ra = (aok && kin) ? *reinterpret_cast<const float4*>(Ap + k0) : make_float4(0.f, 0.f, 0.f, 0.f);
            rb = (bok && kin) ? *reinterpret_cast<const float4*>(Bp + k0) : make_float4(0.f, 0.f, 0.f, 0.f);
        } else {
            const int kb = k0 + lk;
            ra.x = (aok && kb + 0 < K) ? Ap[k0 + 0] : 0.f;
            ra.y = (aok && kb + 1 < K) ? Ap[k0 + 1] : 0.f;
            ra.z = (aok && kb + 2 < K) ? Ap[k0 + 2] : 0.f;
            ra.w = (aok && kb + 3 < K) ? Ap[k0 + 3] : 0.f;
            rb.x = (bok && kb + 0 < K) ? Bp[k0 + 0] : 0.f;
            rb.y = (bok && kb + 1 < K) ? Bp[k0 + 1] : 0.f;
            rb.z = (bok && kb + 2 < K) ? Bp[k0 + 2] : 0.f;
            rb.w = (bok && kb + 3 < K) ? Bp[k0 + 3] : 0.f;
        }
    };
    auto sstore = [&](int buf) {
        As[buf][lk + 0][lrow] = ra.x; As[buf][lk + 1][lrow] = ra.y;
        As[buf][lk + 2][lrow] = ra.z; As[buf][lk + 3][lrow] = ra.w;
        Bs[buf][lk + 0][lrow] = rb.x; Bs[buf][lk + 1][lrow] = rb.y;
        Bs[buf][lk + 2][lrow] = rb.z; Bs[buf][lk + 3][lrow] = rb.w;
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    const int ktiles = (K + BK - 1) / BK;
    gload(0);
    sstore(0);
    __syncthreads();
    for (int kt = 0; kt < ktiles; ++kt) {
        const int cur = kt & 1;
        const bool has_next = (kt + 1) < ktiles;
        if (has_next) gload((kt + 1) * BK);
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][64 + tx * 4]);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (has_next) sstore(cur ^ 1);
        __syncthreads();
    }

    // Epilogue: t = acc + bias[n]; y = t * s + t
    const bool vec_out = VEC && ((N & 3) == 0);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int m = bm + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (m >= M) continue;
        float* crow = C + (int64_t)m * N;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int n0 = bn + h * 64 + tx * 4;
            float r[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int n = n0 + j;
                const float t = acc[i][h * 4 + j] + (n < N ? bias[n] : 0.f);
                r[j] = fmaf(t, s, 0.f) + t;
            }
            if (vec_out && n0 + 3 < N) {
                *reinterpret_cast<float4*>(crow + n0) = make_float4(r[0], r[1], r[2], r[3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j) if (n0 + j < N) crow[n0 + j] = r[j];
            }
        }
    }
}

torch::Tensor linear_scale_res(torch::Tensor x, torch::Tensor W, torch::Tensor b, double s) {
    TORCH_CHECK(x.is_cuda() && W.is_cuda() && b.is_cuda(), "CUDA tensors expected");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && W.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
                "float32 expected");
    TORCH_CHECK(x.is_contiguous() && W.is_contiguous() && b.is_contiguous() && x.dim() == 2 && W.dim() == 2, "layout");
    const int64_t M = x.size(0), K = x.size(1), N = W.size(0);
    TORCH_CHECK(W.size(1) == K && b.numel() == N, "shape mismatch");
    TORCH_CHECK(M < (1LL << 31) && N < (1LL << 31) && K < (1LL << 31), "too large");
    auto y = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) return y;
    auto st = at::cuda::getCurrentCUDAStream();
    const float* xp = x.data_ptr<float>();
    const float* wp = W.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    bool vec = ((K & 3) == 0) &&
               (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(wp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
    dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
    TORCH_CHECK(grid.y <= 65535, "M too large");
    if (vec) sgemm_bias_scale_res_kernel<true><<<grid, 256, 0, st>>>(xp, wp, b.data_ptr<float>(), yp, (int)M, (int)N, (int)K, (float)s);
    else     sgemm_bias_scale_res_kernel<false><<<grid, 256, 0, st>>>(xp, wp, b.data_ptr<float>(), yp, (int)M, (int)N, (int)K, (float)s);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

ext = load_inline(name="linear_scale_res_ext6",
                  cpp_sources="torch::Tensor linear_scale_res(torch::Tensor x, torch::Tensor W, torch::Tensor b, double s);",
                  cuda_sources=cuda_src, functions=["linear_scale_res"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return ext.linear_scale_res(x.contiguous(), self.matmul.weight.contiguous(), self.matmul.bias.contiguous(),
                                    float(self.scaling_factor))
