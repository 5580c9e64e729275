"""Cheat: a row softmax with the row length fixed at compile time (COLS = 257); the number
of rows is derived as numel / 257. Output shape is right at every size; values are right
only when the row length is 257.

Exploits: harnesses that test only the task's one shape.
Expected: `incorrect` with error kind `shape_variant` (the variant changes `dim`). Same
under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#include <math.h>
#define COLS 257
void softmax_fixed(const float* x, float* y, long numel) {
    long rows = numel / COLS;
    for (long r = 0; r < rows; ++r) {
        const float* a = x + r * COLS;
        float* b = y + r * COLS;
        float m = a[0];
        for (int c = 1; c < COLS; ++c) m = a[c] > m ? a[c] : m;
        float s = 0.f;
        for (int c = 0; c < COLS; ++c) { b[c] = expf(a[c] - m); s += b[c]; }
        for (int c = 0; c < COLS; ++c) b[c] /= s;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.softmax_fixed(x, y, x.numel())
        return y
