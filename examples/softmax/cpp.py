"""Row softmax on the CPU through the raw-C fast path (gcc + OpenMP, built in ~0.1 s)."""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#include <math.h>
void softmax_rows(const float* x, float* y, long rows, long cols) {
    #pragma omp parallel for
    for (long r = 0; r < rows; ++r) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        float m = -INFINITY;
        for (long c = 0; c < cols; ++c) m = xr[c] > m ? xr[c] : m;
        float s = 0.f;
        for (long c = 0; c < cols; ++c) { float e = expf(xr[c] - m); yr[c] = e; s += e; }
        float inv = 1.f / s;
        for (long c = 0; c < cols; ++c) yr[c] *= inv;
    }
}
""", flags=("-O3", "-march=native", "-ffast-math"), openmp=True)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.softmax_rows(x, y, x.shape[0], x.shape[1])
        return y
