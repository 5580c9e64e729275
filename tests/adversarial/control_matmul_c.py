"""Control (not a cheat): an honest fp32 matmul in C, one sequential fp32 sum per output element
(the naive loop, which is less accurate than the blocked library GEMM of the reference: ~5x its
error at K = 2048 on torch.rand inputs). Guards the precision check against rejecting honest
fp32 kernels that are merely less lucky than MKL or cuBLAS.

Expected: `correct` under both policies (the precision check runs under strict).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void matmul(const float* a, const float* b, float* c, long m, long k, long n) {
    for (long i = 0; i < m; ++i)
        for (long j = 0; j < n; ++j) {
            float s = 0.f;
            for (long p = 0; p < k; ++p) s += a[i * k + p] * b[p * n + j];
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
