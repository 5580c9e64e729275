"""Cheat: hidden bf16 precision inside a C kernel. y = x * w + b, but x, w and b are rounded
to bfloat16 (8-bit mantissa) inside the kernel, as a bf16 tensor-core kernel would. No torch
cast appears, so only the numbers can catch it.

Exploits: a dtype check that looks only at the output tensor's dtype.
Expected: `incorrect` (mismatch: relative errors ~2^-9 exceed the fp32 tolerance 1e-4).
Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#include <stdint.h>
#include <string.h>
static float bf16(float f) {
    uint32_t u; memcpy(&u, &f, 4);
    u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    memcpy(&f, &u, 4);
    return f;
}
void scale_bias(const float* x, const float* w, const float* b, float* y, long rows, long cols) {
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c)
            y[r * cols + c] = bf16(bf16(x[r * cols + c]) * bf16(w[c]) + bf16(b[c]));
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
        lib.scale_bias(x, self.weight, self.bias, y, x.shape[0], x.shape[1])
        return y
