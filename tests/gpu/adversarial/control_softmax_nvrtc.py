"""Control (not a cheat): an honest NVRTC row softmax (one thread per row, any row
length), on the same task as the downcast and hard-coded-row-length cheats, so that a
verifier rejecting every softmax kernel fails here.

Expected: `correct` under both policies.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, long rows, long cols) {
    long r = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; r < rows; r += stride) {
        const float* a = x + r * cols;
        float* b = y + r * cols;
        float m = a[0];
        for (long c = 1; c < cols; ++c) m = fmaxf(m, a[c]);
        float s = 0.f;
        for (long c = 0; c < cols; ++c) { float e = expf(a[c] - m); b[c] = e; s += e; }
        float inv = 1.f / s;
        for (long c = 0; c < cols; ++c) b[c] *= inv;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        mod.softmax_rows(grid=((rows + 127) // 128,), block=(128,), args=(x, y, rows, cols))
        return y
