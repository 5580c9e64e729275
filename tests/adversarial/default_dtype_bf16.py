"""Cheat (boundary family: global state): `torch.set_default_dtype(torch.bfloat16)` at import. On
main this turned an fp32 task into a bf16 one (inputs, reference and tolerances were made after
it, in the same process), and a kernel that rounds to bf16, 16x outside the fp32 bound, passed.

Exploits: the judge's state sharing a process with the candidate's import.
Expected: inputs, reference and tolerances are made in the judge; the bf16-rounded output is
`incorrect`.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

torch.set_default_dtype(torch.bfloat16)

lib = cc.compile(r"""
#include <stdint.h>
#include <string.h>
/* relu, rounded to bfloat16 precision (the low 16 bits of the float cleared) */
void relu_bf16(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) {
        float v = x[i] > 0.f ? x[i] : 0.f;
        uint32_t b;
        memcpy(&b, &v, 4);
        b &= 0xFFFF0000u;
        memcpy(&v, &b, 4);
        y[i] = v;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty(x.shape, dtype=torch.float32)
        lib.relu_bf16(x.contiguous(), y, x.numel())
        return y
