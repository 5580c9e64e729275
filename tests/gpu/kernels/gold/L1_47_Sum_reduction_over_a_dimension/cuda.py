"""Gold candidate (cuda / load_inline backend) for KernelBench level1/47_Sum_reduction_over_a_dimension.py.

sum over one dim (keepdim) of a (128, 4096, 4095) tensor viewed as (outer, R, inner): one thread per
output, coalesced across the inner dim, 8 loads in flight, fp64 accumulation.
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

__global__ __launch_bounds__(256) void sum_over_dim(const float* __restrict__ x, float* __restrict__ y,
                                                    long outer, long R, long inner) {
    const long total = outer * inner;
    const long stride = (long)gridDim.x * blockDim.x;
    for (long t = blockIdx.x * (long)blockDim.x + threadIdx.x; t < total; t += stride) {
        const long o = t / inner;
        const long i = t - o * inner;
        const float* p = x + o * R * inner + i;
        double acc0 = 0.0, acc1 = 0.0;
        long r = 0;
        for (; r + 8 <= R; r += 8) {
            float v[8];
            #pragma unroll
            for (int u = 0; u < 8; ++u) v[u] = p[(r + u) * inner];
            acc0 += ((double)v[0] + (double)v[1]) + ((double)v[2] + (double)v[3]);
            acc1 += ((double)v[4] + (double)v[5]) + ((double)v[6] + (double)v[7]);
        }
        for (; r < R; ++r) acc0 += (double)p[r * inner];
        y[t] = (float)(acc0 + acc1);
    }
}

torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous(), "x: contiguous float32 CUDA tensor");
    const int64_t nd = x.dim();
    const int64_t d = ((dim % nd) + nd) % nd;
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < d; ++k) outer *= x.size(k);
    for (int64_t k = d + 1; k < nd; ++k) inner *= x.size(k);
    const int64_t R = x.size(d);
    std::vector<int64_t> out_shape(x.sizes().begin(), x.sizes().end());
    out_shape[d] = 1;
    auto y = torch::empty(out_shape, x.options());
    const int64_t total = outer * inner;
    if (total == 0) return y;
    int64_t blocks = (total + 255) / 256;
    if (blocks > 2147483647LL) blocks = 2147483647LL;
    sum_over_dim<<<(unsigned)blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (long)outer, (long)R, (long)inner);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_src = "torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim);"

ext = load_inline(
    name="km_gold_l1_47_sum_reduction_over_a_dimension",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=['sum_dim_forward'],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.sum_dim_forward(x.contiguous(), self.dim)
