"""Row softmax on the GPU: one block per row, warp-shuffle reductions, NVRTC-compiled."""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
// blockDim.x must be a multiple of 32 and at most 1024
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, long cols) {
    __shared__ float red[32];
    const float* xr = x + blockIdx.x * cols;
    float* yr = y + blockIdx.x * cols;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;

    float m = -__int_as_float(0x7f800000);  // -inf (NVRTC has no math.h)
    for (long c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
    m = warp_max(m);
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = lane < nwarps ? red[lane] : -__int_as_float(0x7f800000);
    m = warp_max(m);
    __syncthreads();

    float s = 0.f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(xr[c] - m);
    s = warp_sum(s);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = lane < nwarps ? red[lane] : 0.f;
    s = warp_sum(s);

    float inv = 1.f / s;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = __expf(xr[c] - m) * inv;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        mod.softmax_rows(grid=(rows,), block=(256,), args=(x, y, cols))
        return y
