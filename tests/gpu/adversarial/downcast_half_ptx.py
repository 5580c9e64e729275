"""Cheat (GPU; header-free twin of downcast_half_kernel.py): hidden fp16 arithmetic inside
the NVRTC kernel through inline PTX (`cvt.rn.f16.f32`, `fma.rn.f16`, `cvt.f32.f16`), so
neither a torch cast nor even a __half type appears in the source. y = x * w + b on an
fp32 task, computed in half precision.

Exploits: a dtype check that looks only at the output tensor's dtype, and source scans for
half types.
Expected: `incorrect` (mismatch: fp16 rounding of O(1) values, up to ~1e-3 absolute, far
above the fp32 tolerance). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__device__ unsigned short to_f16(float f) {
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
__global__ void scale_bias(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                           float* __restrict__ y, long rows, long cols) {
    long n = rows * cols;
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        long c = i % cols;
        unsigned short hx = to_f16(x[i]), hw = to_f16(w[c]), hb = to_f16(b[c]), hy;
        asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(hy) : "h"(hx), "h"(hw), "h"(hb));
        float r;
        asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(hy));
        y[i] = r;
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
