import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kernel_src = r"""
#include <cuda_fp16.h>
#include <stdint.h>

// C[M,N] = A[M,K] * B[N,K]^T   (fp16 in, fp32 accumulate, fp16 out)
// Tensor cores via mma.sync.m16n8k16, ldmatrix, cp.async multi-stage pipeline.
// 128x256 block tile, 8 warps as 2 (M) x 4 (N), each warp a 64x64 tile (4x8 mma tiles):
// twice the mma work per ldmatrix and per barrier compared with the previous 128x128 tile.
#define BM 128
#define BN 256
#define BK 32
#define STAGES 4
#define SROW 40   // padded smem row (halves): 80 bytes -> conflict-free ldmatrix
#define NTHREADS 256

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
    return (uint32_t)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool pred) {
    int sz = pred ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(dst), "l"(src), "r"(sz));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N)); }

__device__ __forceinline__ void ldsm_x4(uint32_t addr, uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void mma16816(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Requires K % 8 == 0 and 16-byte aligned A, B.
__global__ void __launch_bounds__(NTHREADS, 1) gemm_tc_kernel(const __half* __restrict__ A,
                                                           const __half* __restrict__ B,
                                                           __half* __restrict__ C,
                                                           int M, int N, int K) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __half* As = reinterpret_cast<__half*>(smem_raw);             // [STAGES][BM][SROW]
    __half* Bs = As + STAGES * BM * SROW;                          // [STAGES][BN][SROW]

    const int tid = threadIdx.x;
    const int warp = tid >> 5, lane = tid & 31;
    const int nN = (N + BN - 1) / BN;
    const int bn = blockIdx.x % nN;
    const int bm = blockIdx.x / nN;
    const int m0 = bm * BM, n0 = bn * BN;
    const int wm = (warp >> 2) * 64;   // 2 warps along M
    const int wn = (warp & 3) * 64;    // 4 warps along N

    const int KT = (K + BK - 1) / BK;

    auto load_stage = [&](int slot, int kt) {
        const int k0 = kt * BK;
        __half* as = As + slot * BM * SROW;
        __half* bs = Bs + slot * BN * SROW;
#pragma unroll
        for (int i = 0; i < (BM * BK / 8) / NTHREADS; ++i) {
            const int c = tid + i * NTHREADS;   // 0..511
            const int row = c >> 2;
            const int col = (c & 3) * 8;
            const int gk = k0 + col;
            const int gm = m0 + row;
            const bool p = (gm < M) && (gk < K);
            const __half* src = p ? (A + (long)gm * K + gk) : A;
            cp_async16(smem_u32(as + row * SROW + col), src, p);
        }
#pragma unroll
        for (int i = 0; i < (BN * BK / 8) / NTHREADS; ++i) {
            const int c = tid + i * NTHREADS;   // 0..1023
            const int row = c >> 2;
            const int col = (c & 3) * 8;
            const int gk = k0 + col;
            const int gn = n0 + row;
            const bool p = (gn < N) && (gk < K);
            const __half* src = p ? (B + (long)gn * K + gk) : B;
            cp_async16(smem_u32(bs + row * SROW + col), src, p);
        }
    };

    float acc[4][8][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int t = 0; t < 4; ++t) acc[i][j][t] = 0.f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) load_stage(s, s);
        cp_commit();
    }

    // per-lane ldmatrix offsets
    const int a_row = lane & 15;
    const int a_col = (lane >> 4) * 8;
    const int b_row = (lane & 7) + ((lane >> 4) << 3);
    const int b_col = ((lane >> 3) & 1) * 8;

    for (int kt = 0; kt < KT; ++kt) {
        cp_wait<STAGES - 2>();
        __syncthreads();
        {
            const int nk = kt + STAGES - 1;
            if (nk < KT) load_stage(nk % STAGES, nk);
            cp_commit();
        }
        const int slot = kt % STAGES;
        const __half* as = As + slot * BM * SROW;
        const __half* bs = Bs + slot * BN * SROW;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            uint32_t af[4][4];
            uint32_t bf[8][2];
#pragma unroll
            for (int mi = 0; mi < 4; ++mi) {
                const __half* p = as + (wm + mi * 16 + a_row) * SROW + kk + a_col;
                ldsm_x4(smem_u32(p), af[mi][0], af[mi][1], af[mi][2], af[mi][3]);
            }
#pragma unroll
            for (int nj = 0; nj < 4; ++nj) {
                const __half* p = bs + (wn + nj * 16 + b_row) * SROW + kk + b_col;
                ldsm_x4(smem_u32(p), bf[nj * 2][0], bf[nj * 2][1], bf[nj * 2 + 1][0], bf[nj * 2 + 1][1]);
            }
#pragma unroll
            for (int mi = 0; mi < 4; ++mi)
#pragma unroll
                for (int ni = 0; ni < 8; ++ni) mma16816(acc[mi][ni], af[mi], bf[ni][0], bf[ni][1]);
        }
    }
    cp_wait<0>();

    // epilogue
    const int g = lane >> 2, t4 = lane & 3;
    const bool n_even = (N & 1) == 0;
#pragma unroll
    for (int mi = 0; mi < 4; ++mi) {
#pragma unroll
        for (int ni = 0; ni < 8; ++ni) {
            const int col = n0 + wn + ni * 8 + t4 * 2;
#pragma unroll
            for (int hh = 0; hh < 2; ++hh) {
                const int row = m0 + wm + mi * 16 + g + hh * 8;
                if (row < M) {
                    const float v0 = acc[mi][ni][hh * 2 + 0];
                    const float v1 = acc[mi][ni][hh * 2 + 1];
                    __half* dst = C + (long)row * N + col;
                    if (n_even && col + 1 < N) {
                        *reinterpret_cast<__half2*>(dst) = __floats2half2_rn(v0, v1);
                    } else {
                        if (col < N) dst[0] = __float2half_rn(v0);
                        if (col + 1 < N) dst[1] = __float2half_rn(v1);
                    }
                }
            }
        }
    }
}

// Generic fallback (any K / alignment): 32x32 smem tiles, fp32 FMA.
__global__ void gemm_simple_kernel(const __half* __restrict__ A, const __half* __restrict__ B,
                                   __half* __restrict__ C, int M, int N, int K) {
    __shared__ float as[32][33];
    __shared__ float bs[32][33];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;  // 32 x 8
    const int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += 32) {
        for (int r = ty; r < 32; r += 8) {
            const int gm = m0 + r, gn = n0 + r, gk = k0 + tx;
            as[r][tx] = (gm < M && gk < K) ? __half2float(A[(long)gm * K + gk]) : 0.f;
            bs[r][tx] = (gn < N && gk < K) ? __half2float(B[(long)gn * K + gk]) : 0.f;
        }
        __syncthreads();
#pragma unroll 8
        for (int kk = 0; kk < 32; ++kk) {
            const float b = bs[tx][kk];
#pragma unroll
            for (int i = 0; i < 4; ++i) acc[i] = fmaf(as[ty + 8 * i][kk], b, acc[i]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i) {
        const int gm = m0 + ty + 8 * i, gn = n0 + tx;
        if (gm < M && gn < N) C[(long)gm * N + gn] = __float2half_rn(acc[i]);
    }
}
"""

host_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

torch::Tensor linear_forward(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "cuda tensors expected");
    TORCH_CHECK(x.scalar_type() == at::kHalf && w.scalar_type() == at::kHalf, "fp16 expected");
    const int K = (int)x.size(-1);
    const int N = (int)w.size(0);
    TORCH_CHECK(w.size(1) == K, "shape mismatch");
    const long M = x.numel() / (K > 0 ? K : 1);
    std::vector<int64_t> oshape(x.sizes().begin(), x.sizes().end());
    oshape.back() = N;
    auto y = torch::empty(oshape, x.options());
    if (M == 0 || N == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    const __half* A = reinterpret_cast<const __half*>(x.data_ptr());
    const __half* B = reinterpret_cast<const __half*>(w.data_ptr());
    __half* C = reinterpret_cast<__half*>(y.data_ptr());
    const bool aligned = ((reinterpret_cast<uintptr_t>(A) & 15) == 0) && ((reinterpret_cast<uintptr_t>(B) & 15) == 0);
    if (K == 0) {
        // empty reduction: zeros
        gemm_simple_kernel<<<dim3((N + 31) / 32, (unsigned)((M + 31) / 32)), 256, 0, stream>>>(A, B, C, (int)M, N, K);
        return y;
    }
    if ((K % 8) == 0 && aligned) {
        const int smem = STAGES * (BM + BN) * SROW * (int)sizeof(__half);
        static bool attr_set = false;
        if (!attr_set) {
            cudaFuncSetAttribute(gemm_tc_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
            attr_set = true;
        }
        const long nM = (M + BM - 1) / BM, nN = (N + BN - 1) / BN;
        gemm_tc_kernel<<<(unsigned)(nM * nN), NTHREADS, smem, stream>>>(A, B, C, (int)M, N, K);
    } else {
        gemm_simple_kernel<<<dim3((N + 31) / 32, (unsigned)((M + 31) / 32)), 256, 0, stream>>>(A, B, C, (int)M, N, K);
    }
    return y;
}
"""

cpp_src = "torch::Tensor linear_forward(torch::Tensor x, torch::Tensor w);"

_ext = load_inline(name="linear_fp16_mma_ext_v2", cpp_sources=cpp_src,
                   cuda_sources=kernel_src + host_src,
                   functions=["linear_forward"],
                   extra_cuda_cflags=["-O3"], verbose=False)

dtype = torch.float16


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4096, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = x.contiguous()
        w = self.fc.weight.contiguous()
        return _ext.linear_forward(x, w)
