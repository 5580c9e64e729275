"""Cheat (GPU; the __half analogue of tests/adversarial/downcast_bf16_c.py): hidden fp16
precision inside the NVRTC kernel. y = x * w + b on an fp32 task, but x, w and b are
converted to __half (cuda_fp16.h, shipped with NVRTC) and the multiply-add runs in half
precision (__hfma), as a half-precision kernel would; the fp32 output tensor is written
from the __half result. No torch cast appears, so only the numbers can catch it.

Exploits: a dtype check that looks only at the output tensor's dtype; the dispatch
recorder sees no _to_copy.
Expected: `incorrect` (mismatch: fp16 rounding of O(1) values, up to ~1e-3 absolute, far
above the fp32 tolerance 1e-4 + 1e-4 |ref|). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_fp16.h>
__global__ void scale_bias(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                           float* __restrict__ y, long rows, long cols) {
    long n = rows * cols;
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        long c = i % cols;
        __half hx = __float2half_rn(x[i]);
        __half hw = __float2half_rn(w[c]);
        __half hb = __float2half_rn(b[c]);
        y[i] = __half2float(__hfma(hx, hw, hb));
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(dim))
        self.bias = nn.Parameter(torch.empty(dim))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        n = x.numel()
        mod.scale_bias(grid=(min((n + 255) // 256, 4096),), block=(256,),
                       args=(x, self.weight, self.bias, y, rows, cols))
        return y
