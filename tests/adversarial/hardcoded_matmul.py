"""Cheat: a matmul with M = K = N = 64 baked into the C kernel (fully unrollable loops) and
a (64, 64) output, whatever the inputs are.

Exploits: harnesses that test only the task's one shape.
Expected: `incorrect` with error kind `shape_variant` (M, K, N are module-level constants
used only by get_inputs; the variant changes them). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#define D 64
void mm64(const float* a, const float* b, float* c) {
    for (int i = 0; i < D; ++i)
        for (int j = 0; j < D; ++j) {
            float s = 0.f;
            for (int k = 0; k < D; ++k) s += a[i * D + k] * b[k * D + j];
            c[i * D + j] = s;
        }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        C = torch.empty(64, 64)
        lib.mm64(A.contiguous(), B.contiguous(), C)
        return C
