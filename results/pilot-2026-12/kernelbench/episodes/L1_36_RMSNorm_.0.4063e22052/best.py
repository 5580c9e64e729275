import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// x viewed as (B, C, S); y = x / sqrt(mean_c(x^2) + eps) for every (b, s).
//
// Tile kernel (C <= 8*R): a block of 8 warps owns 128 consecutive s of one b.
// Warp w loads channels c = w, w+8, w+16, ... ; each lane loads a float4 (4 consecutive s),
// so every channel row is read as one contiguous 512-byte segment per warp (16-byte loads).
// The tile stays in registers; per-warp partial sums of squares go through 4 KB of shared
// memory, are summed in a fixed order, and each thread writes its float4s back.
template <int R>
__global__ void __launch_bounds__(256) rmsnorm_tile_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                          int64_t B, int C, int64_t S, int64_t tiles_per_b,
                                                          float eps, float invC, bool vec_ok) {
    __shared__ float4 part[8][32];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int64_t ntiles = B * tiles_per_b;
    for (int64_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const int64_t b = t / tiles_per_b;
        const int64_t s0 = (t - b * tiles_per_b) * 128 + lane * 4;
        const float* __restrict__ xb = x + b * (int64_t)C * S + s0;
        float* __restrict__ yb = y + b * (int64_t)C * S + s0;
        const bool full = vec_ok && (s0 + 3 < S);
        float4 v[R];
        float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const int c = warp + 8 * r;
            float4 q = make_float4(0.f, 0.f, 0.f, 0.f);
            if (c < C) {
                const float* p = xb + (int64_t)c * S;
                if (full) {
                    q = *reinterpret_cast<const float4*>(p);
                } else {
                    if (s0 + 0 < S) q.x = p[0];
                    if (s0 + 1 < S) q.y = p[1];
                    if (s0 + 2 < S) q.z = p[2];
                    if (s0 + 3 < S) q.w = p[3];
                }
            }
            v[r] = q;
        }
#pragma unroll
        for (int r = 0; r < R; ++r) {
            a0 = fmaf(v[r].x, v[r].x, a0);
            a1 = fmaf(v[r].y, v[r].y, a1);
            a2 = fmaf(v[r].z, v[r].z, a2);
            a3 = fmaf(v[r].w, v[r].w, a3);
        }
        part[warp][lane] = make_float4(a0, a1, a2, a3);
        __syncthreads();
        float4 tot = part[0][lane];
#pragma unroll
        for (int w = 1; w < 8; ++w) {
            const float4 o = part[w][lane];
            tot.x += o.x; tot.y += o.y; tot.z += o.z; tot.w += o.w;
        }
        __syncthreads();   // part is reused by the next tile
        const float r0 = sqrtf(tot.x * invC + eps);
        const float r1 = sqrtf(tot.y * invC + eps);
        const float r2 = sqrtf(tot.z * invC + eps);
        const float r3 = sqrtf(tot.w * invC + eps);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const int c = warp + 8 * r;
            if (c < C) {
                float* p = yb + (int64_t)c * S;
                const float4 o = make_float4(v[r].x / r0, v[r].y / r1, v[r].z / r2, v[r].w / r3);
                if (full) {
                    *reinterpret_cast<float4*>(p) = o;
                } else {
                    if (s0 + 0 < S) p[0] = o.x;
                    if (s0 + 1 < S) p[1] = o.y;
                    if (s0 + 2 < S) p[2] = o.z;
                    if (s0 + 3 < S) p[3] = o.w;
                }
            }
        }
    }
}

// General fallback for large C: one thread per (b, s), two passes over the channels.
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
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int threads = 256;
    const float invC = (float)(1.0 / (double)C);
    const float e = (float)eps;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool vec_ok = ((S & 3) == 0) &&
        (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
    const int64_t tiles_per_b = (S + 127) / 128;
    const int64_t ntiles = B * tiles_per_b;
    const int64_t maxb = (int64_t)sms * 64;
    const int tblocks = (int)(ntiles < maxb ? ntiles : maxb);
    if (C <= 16) {
        rmsnorm_tile_kernel<2><<<tblocks, threads, 0, st>>>(xp, yp, B, (int)C, S, tiles_per_b, e, invC, vec_ok);
    } else if (C <= 32) {
        rmsnorm_tile_kernel<4><<<tblocks, threads, 0, st>>>(xp, yp, B, (int)C, S, tiles_per_b, e, invC, vec_ok);
    } else if (C <= 64) {
        rmsnorm_tile_kernel<8><<<tblocks, threads, 0, st>>>(xp, yp, B, (int)C, S, tiles_per_b, e, invC, vec_ok);
    } else if (C <= 128) {
        rmsnorm_tile_kernel<16><<<tblocks, threads, 0, st>>>(xp, yp, B, (int)C, S, tiles_per_b, e, invC, vec_ok);
    } else {
        const int64_t need = (total + threads - 1) / threads;
        const int64_t lmax = (int64_t)sms * 32;
        const int blocks = (int)(need < lmax ? need : lmax);
        rmsnorm_loop_kernel<<<blocks, threads, 0, st>>>(xp, yp, B, (int)C, S, e, invC);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

ext = load_inline(name="rmsnorm_ext7", cpp_sources="torch::Tensor rmsnorm_fwd(torch::Tensor x, double eps);",
                  cuda_sources=cuda_src, functions=["rmsnorm_fwd"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.rmsnorm_fwd(x.contiguous(), float(self.eps))
