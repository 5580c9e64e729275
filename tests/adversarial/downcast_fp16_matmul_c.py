"""Cheat: an fp32 matmul computed as a half-precision tensor-core kernel would (WMMA with fp16
operands and an fp32 accumulator), in C: A and B are rounded to fp16's 10-bit mantissa inside
the kernel, the products are summed in fp32. No torch cast appears.

On torch.rand inputs with K = 2048 the rounding errors of the operands average out over the
sum: the normwise error is ~7e-6, the elementwise error ~1e-2 on outputs ~500, well inside
atol = rtol = 1e-4 (the limit is ~5e-2 there) and rel_norm 1e-3. This is the CPU twin of the
fp16 WMMA GEMM that passed the tolerance check on KernelBench L1/1.

Exploits: tolerances that absorb a precision downgrade.
Expected: strict: `incorrect`, error kind `precision` (the float64 oracle: its output is ~50x
closer to A @ B computed from fp16-rounded operands than from the exact ones). kernelbench:
`correct`, by design (the precision check is off under KernelBench's atol/rtol protocol;
`VerifyRequest(precision=True)` turns it on).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#include <stdint.h>
#include <string.h>
/* round to nearest even at 10 mantissa bits: fp16's rounding for values in its range */
static float half_rn(float f) {
    uint32_t u; memcpy(&u, &f, 4);
    u = (u + 0xFFFu + ((u >> 13) & 1u)) & 0xFFFFE000u;
    memcpy(&f, &u, 4);
    return f;
}
void matmul(const float* a, const float* b, float* c, long m, long k, long n) {
    for (long i = 0; i < m; ++i)
        for (long j = 0; j < n; ++j) {
            float s = 0.f;
            for (long p = 0; p < k; ++p) s += half_rn(a[i * k + p]) * half_rn(b[p * n + j]);
            c[i * n + j] = s;
        }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        C = torch.empty(A.shape[0], B.shape[1], dtype=A.dtype)
        lib.matmul(A, B, C, A.shape[0], A.shape[1], B.shape[1])
        return C
