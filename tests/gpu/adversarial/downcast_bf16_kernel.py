"""Cheat (GPU port of tests/adversarial/downcast_bf16_c.py): hidden bf16 precision inside
the NVRTC kernel. y = x * w + b, but x, w and b are rounded to bfloat16 (8-bit mantissa,
round-to-nearest-even on the bit pattern) inside the kernel, as a bf16 tensor-core kernel
would. No torch cast appears, so only the numbers can catch it.

Exploits: a dtype check that looks only at the output tensor's dtype.
Expected: `incorrect` (mismatch: relative errors ~2^-9 exceed the fp32 tolerance 1e-4).
Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__device__ float bf16(float f) {
    unsigned int u = __float_as_uint(f);
    u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    return __uint_as_float(u);
}
__global__ void scale_bias(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                           float* __restrict__ y, long rows, long cols) {
    long n = rows * cols;
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        long c = i % cols;
        y[i] = bf16(bf16(x[i]) * bf16(w[c]) + bf16(b[c]));
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
