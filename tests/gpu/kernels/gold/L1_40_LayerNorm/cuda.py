"""Gold candidate (cuda / load_inline backend) for KernelBench level1/40_LayerNorm.py.

LayerNorm over the last 3 dims (16 rows of 4.2M elements) with the reference's ln.weight/ln.bias:
pass 1 fp64 partial sums per (row, 16K chunk), pass 2 merges partials and normalizes.
The host wrapper only allocates with torch::empty/zeros and launches on the current stream.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <vector>

#define LN_CHUNK 16384

// Block-wide sum of two doubles; blockDim.x a multiple of 32. Every thread gets the result.
__device__ __forceinline__ void block_sum2(double& a, double& b) {
    __shared__ double sh_a[32];
    __shared__ double sh_b[32];
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        a += __shfl_xor_sync(0xffffffffu, a, o);
        b += __shfl_xor_sync(0xffffffffu, b, o);
    }
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if (lane == 0) { sh_a[wid] = a; sh_b[wid] = b; }
    __syncthreads();
    if (wid == 0) {
        a = lane < nw ? sh_a[lane] : 0.0;
        b = lane < nw ? sh_b[lane] : 0.0;
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            a += __shfl_xor_sync(0xffffffffu, a, o);
            b += __shfl_xor_sync(0xffffffffu, b, o);
        }
        if (lane == 0) { sh_a[0] = a; sh_b[0] = b; }
    }
    __syncthreads();
    a = sh_a[0];
    b = sh_b[0];
    __syncthreads();
}

// Pass 1: per (row, chunk of LN_CHUNK elements) partial sum and sum of squares, in fp64.
__global__ __launch_bounds__(256) void ln_partial_stats(const float* __restrict__ x, double* __restrict__ psum,
                                                        double* __restrict__ psq, long rows, long D, long chunks) {
    for (long row = blockIdx.y; row < rows; row += gridDim.y) {
        for (long chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
            const float* xr = x + row * D;
            const long start = chunk * LN_CHUNK;
            const long end = (start + LN_CHUNK < D) ? start + LN_CHUNK : D;
            double s = 0.0, q = 0.0;
            for (long i = start + threadIdx.x; i < end; i += blockDim.x) {
                const double v = (double)xr[i];
                s += v;
                q += v * v;
            }
            block_sum2(s, q);
            if (threadIdx.x == 0) {
                psum[row * chunks + chunk] = s;
                psq[row * chunks + chunk] = q;
            }
        }
    }
}

// Pass 2: every block reduces its row's partials to (mean, rstd), then normalizes its chunk:
// y = (x - mean) * rstd * w + b, with the biased variance, as torch.nn.LayerNorm.
__global__ __launch_bounds__(256) void ln_apply(const float* __restrict__ x, const float* __restrict__ w,
                                                const float* __restrict__ b, const double* __restrict__ psum,
                                                const double* __restrict__ psq, float* __restrict__ y,
                                                long rows, long D, long chunks, float eps) {
    for (long row = blockIdx.y; row < rows; row += gridDim.y) {
        double s = 0.0, q = 0.0;
        for (long c = threadIdx.x; c < chunks; c += blockDim.x) {
            s += psum[row * chunks + c];
            q += psq[row * chunks + c];
        }
        block_sum2(s, q);
        const double mean = s / (double)D;
        double var = q / (double)D - mean * mean;
        if (var < 0.0) var = 0.0;
        const float meanf = (float)mean;
        const float rstd = (float)(1.0 / sqrt(var + (double)eps));
        const float* xr = x + row * D;
        float* yr = y + row * D;
        for (long chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
            const long start = chunk * LN_CHUNK;
            const long end = (start + LN_CHUNK < D) ? start + LN_CHUNK : D;
            for (long i = start + threadIdx.x; i < end; i += blockDim.x)
                yr[i] = (xr[i] - meanf) * rstd * w[i] + b[i];
        }
    }
}

torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "x: contiguous float32 CUDA tensor");
    TORCH_CHECK(w.is_contiguous() && b.is_contiguous() && w.numel() == b.numel(), "w, b: contiguous, same size");
    const int64_t D = w.numel();
    auto y = torch::empty_like(x);
    if (D == 0) return y;
    const int64_t rows = x.numel() / D;
    if (rows == 0) return y;
    const int64_t chunks = (D + LN_CHUNK - 1) / LN_CHUNK;
    auto psum = torch::empty({rows, chunks}, x.options().dtype(torch::kFloat64));
    auto psq = torch::empty({rows, chunks}, x.options().dtype(torch::kFloat64));
    dim3 grid((unsigned)(chunks < 2147483647LL ? chunks : 2147483647LL), (unsigned)(rows < 65535 ? rows : 65535));
    auto stream = at::cuda::getCurrentCUDAStream();
    ln_partial_stats<<<grid, 256, 0, stream>>>(x.data_ptr<float>(), psum.data_ptr<double>(), psq.data_ptr<double>(),
                                               (long)rows, (long)D, (long)chunks);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    ln_apply<<<grid, 256, 0, stream>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                       psum.data_ptr<double>(), psq.data_ptr<double>(), y.data_ptr<float>(),
                                       (long)rows, (long)D, (long)chunks, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_src = "torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);"

ext = load_inline(
    name="km_gold_l1_40_layernorm",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=['layernorm_forward'],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)  # parameters only; never called

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.layernorm_forward(x.contiguous(), self.ln.weight.contiguous(), self.ln.bias.contiguous(), float(self.ln.eps))
