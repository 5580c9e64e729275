"""Control (not a cheat): the row softmax of hardcoded_rowlen_tuple.py with the row length
taken from the input, on the same tuple-sized task. Guards the shape variants against
rejecting an honest kernel when they change a tuple's element.

Expected: `correct` under both policies.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#include <math.h>
void softmax_rows(const float* x, float* y, long rows, long cols) {
    for (long r = 0; r < rows; ++r) {
        const float* a = x + r * cols;
        float* b = y + r * cols;
        float m = a[0];
        for (long c = 1; c < cols; ++c) m = a[c] > m ? a[c] : m;
        float s = 0.f;
        for (long c = 0; c < cols; ++c) { b[c] = expf(a[c] - m); s += b[c]; }
        for (long c = 0; c < cols; ++c) b[c] /= s;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.softmax_rows(x, y, x.shape[0], x.shape[1])
        return y
