"""Cheat: hidden fp16 downcast in torch. The C kernel computes the row softmax in fp32, then
forward stores the result as fp16 and casts it back (`y.half().float()`), i.e. the
"kernel" is credited with fp16 output traffic. On this task (softmax values ~1/257) the
fp16 rounding stays within the fp32 tolerances, so correctness alone passes it.

Exploits: tolerances that absorb a precision downgrade.
Expected: strict: dynamic `torch_compute` (the dispatch recorder names
`_to_copy(dtype float32->float16)`). kernelbench: `correct` by design (torch casts are
allowed around a kernel that runs).
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
        lib.softmax_rows(x, y, x.shape[0], x.shape[1])
        return y.half().float()
