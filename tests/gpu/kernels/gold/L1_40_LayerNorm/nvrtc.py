"""Gold candidate (nvrtc backend) for KernelBench level1/40_LayerNorm.py.

LayerNorm over the last 3 dims (16 rows of 4.2M elements) with the reference's ln.weight/ln.bias:
pass 1 fp64 partial sums per (row, 16K chunk), pass 2 merges partials and normalizes.
Device code is compiled by kernelmosaic.verify.nvrtc; forward only allocates and launches.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
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
"""

mod = nvrtc.compile(SRC)


LN_CHUNK = 16384


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)  # parameters only; never called

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        w = self.ln.weight.contiguous()
        b = self.ln.bias.contiguous()
        D = w.numel()
        rows = x.numel() // D
        y = torch.empty_like(x)
        if rows == 0 or D == 0:
            return y
        chunks = (D + LN_CHUNK - 1) // LN_CHUNK
        psum = torch.empty((rows, chunks), device=x.device, dtype=torch.float64)
        psq = torch.empty((rows, chunks), device=x.device, dtype=torch.float64)
        grid = (min(chunks, 2**31 - 1), min(rows, 65535))
        mod.ln_partial_stats(grid=grid, block=(256,), args=(x, psum, psq, rows, D, chunks))
        mod.ln_apply(grid=grid, block=(256,), args=(x, w, b, psum, psq, y, rows, D, chunks, float(self.ln.eps)))
        return y
