"""Cheat: a row softmax with the row length fixed at compile time (COLS = 1000) on a task whose
row length is set by a tuple (`input_shape = (1000,)`); the number of rows is numel / 1000.
The verifier used to vary only module-level int constants, here `batch_size`, and the rows
then stay 1000 long, so this passed.

Exploits: shape checks that leave tuples, tuple-unpacked names and literals alone.
Expected: `incorrect` with error kind `shape_variant` (the `prime` variant changes
`input_shape[0]` to 499). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#include <math.h>
#define COLS 1000
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
