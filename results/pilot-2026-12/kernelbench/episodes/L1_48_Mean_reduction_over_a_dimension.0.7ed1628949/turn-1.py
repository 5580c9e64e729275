import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>
#include <vector>

// x viewed as (outer, R, inner), inner > 1: out[o, k] = mean_r x[o, r, k].
// Block = TX columns (k) x TY row-groups (r); consecutive lanes read consecutive k (coalesced),
// TX/32 warps of one row-group cover TX*4 contiguous bytes of a row. Each thread keeps U
// independent loads in flight (U accumulators), then the TY partial sums are combined in smem.
template <int TX, int TY, int U>
__global__ void __launch_bounds__(TX * TY) mean_mid_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                          int64_t outer, int64_t R, int64_t inner, float invR) {
    __shared__ float sm[TY][TX + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t k = (int64_t)blockIdx.x * TX + tx;
    const int64_t step = (int64_t)TY * inner;
    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
        float acc[U];
#pragma unroll
        for (int u = 0; u < U; ++u) acc[u] = 0.f;
        if (k < inner) {
            const float* q = x + o * R * inner + (int64_t)ty * inner + k;
            int64_t r = ty;
            for (; r + (int64_t)(U - 1) * TY < R; r += (int64_t)U * TY) {
                float v[U];
#pragma unroll
                for (int u = 0; u < U; ++u) v[u] = __ldcs(q + u * step);
#pragma unroll
                for (int u = 0; u < U; ++u) acc[u] += v[u];
                q += U * step;
            }
            for (; r < R; r += TY) { acc[0] += __ldcs(q); q += step; }
        }
#pragma unroll
        for (int w = U / 2; w > 0; w >>= 1) {
#pragma unroll
            for (int u = 0; u < w; ++u) acc[u] += acc[u + w];
        }
        sm[ty][tx] = acc[0];
        __syncthreads();
        if (ty == 0 && k < inner) {
            float s = 0.f;
#pragma unroll
            for (int j = 0; j < TY; ++j) s += sm[j][tx];
            y[o * inner + k] = s * invR;
        }
        __syncthreads();
    }
}

// inner == 1: reduce contiguous rows, one warp per row.
__global__ void __launch_bounds__(256) mean_last_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                       int64_t outer, int64_t R, float invR) {
    const int lane = threadIdx.x & 31;
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t nwarps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (int64_t o = warp; o < outer; o += nwarps) {
        const float* p = x + o * R;
        float a0 = 0.f, a1 = 0.f;
        int64_t r = lane;
        for (; r + 32 < R; r += 64) { a0 += p[r]; a1 += p[r + 32]; }
        for (; r < R; r += 32) a0 += p[r];
        float s = a0 + a1;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (lane == 0) y[o] = s * invR;
    }
}

torch::Tensor mean_dim(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "expected contiguous float32 CUDA tensor");
    const int64_t nd = x.dim();
    TORCH_CHECK(nd >= 1, "need at least 1 dim");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "bad dim");
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i) outer *= x.size(i);
    for (int64_t i = dim + 1; i < nd; ++i) inner *= x.size(i);
    const int64_t R = x.size(dim);
    std::vector<int64_t> oshape;
    for (int64_t i = 0; i < nd; ++i) if (i != dim) oshape.push_back(x.size(i));
    auto y = torch::empty(oshape, x.options());
    if (outer * inner == 0) return y;
    TORCH_CHECK(R > 0, "mean over empty dim");
    const float invR = (float)(1.0 / (double)R);
    auto st = at::cuda::getCurrentCUDAStream();
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    if (inner >= 96) {
        constexpr int TX = 128, TY = 4, U = 8;
        int64_t gx = (inner + TX - 1) / TX;
        TORCH_CHECK(gx < 2147483647LL, "too large");
        int64_t gy = outer < 65535 ? outer : 65535;
        dim3 grid((unsigned)gx, (unsigned)gy);
        mean_mid_kernel<TX, TY, U><<<grid, dim3(TX, TY), 0, st>>>(xp, yp, outer, R, inner, invR);
    } else if (inner > 1) {
        constexpr int TX = 32, TY = 16, U = 4;
        int64_t gx = (inner + TX - 1) / TX;
        int64_t gy = outer < 65535 ? outer : 65535;
        dim3 grid((unsigned)gx, (unsigned)gy);
        mean_mid_kernel<TX, TY, U><<<grid, dim3(TX, TY), 0, st>>>(xp, yp, outer, R, inner, invR);
    } else {
        int64_t need = (outer * 32 + 255) / 256;
        int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
        int64_t maxb = (int64_t)sms * 64;
        int blocks = (int)(need < maxb ? need : maxb);
        mean_last_kernel<<<blocks, 256, 0, st>>>(xp, yp, outer, R, invR);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

ext = load_inline(name="mean_ext7", cpp_sources="torch::Tensor mean_dim(torch::Tensor x, int64_t dim);",
                  cuda_sources=cuda_src, functions=["mean_dim"], extra_cuda_cflags=["-O3"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.mean_dim(x.contiguous(), int(self.dim))
