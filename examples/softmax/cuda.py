"""Row softmax in KernelBench's load_inline format (about a minute to build, then cached)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, long cols) {
    __shared__ float red[32];
    const float* xr = x + blockIdx.x * cols;
    float* yr = y + blockIdx.x * cols;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    float m = -INFINITY;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
    m = warp_max(m);
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = warp_max(lane < nwarps ? red[lane] : -INFINITY);
    __syncthreads();
    float s = 0.f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(xr[c] - m);
    s = warp_sum(s);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = warp_sum(lane < nwarps ? red[lane] : 0.f);
    float inv = 1.f / s;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = __expf(xr[c] - m) * inv;
}

torch::Tensor softmax(torch::Tensor x) {
    auto y = torch::empty_like(x);
    softmax_rows<<<x.size(0), 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
    return y;
}
"""

ext = load_inline(name="kmosaic_example_softmax", cpp_sources="torch::Tensor softmax(torch::Tensor x);",
                  cuda_sources=cuda_src, functions=["softmax"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softmax(x.contiguous())
