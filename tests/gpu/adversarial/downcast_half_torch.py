"""Cheat (GPU port of tests/adversarial/downcast_half_torch.py): hidden fp16 downcast in
torch. The NVRTC kernel computes the row softmax in fp32, then forward stores the result as
fp16 and casts it back (`y.half().float()`). On this task (softmax values ~1/257) the fp16
rounding stays within the fp32 tolerances, so correctness alone passes it.

Exploits: tolerances that absorb a precision downgrade.
Expected: strict: dynamic `torch_compute` (the dispatch recorder names
`_to_copy(dtype float32->float16)`). kernelbench: `correct` by design (torch casts are
allowed around a kernel that runs).
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
        double s = 0.0;
        for (long c = 0; c < cols; ++c) { b[c] = expf(a[c] - m); s += b[c]; }
        float inv = (float)(1.0 / s);
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
        return y.half().float()
