"""Control (not a cheat): an honest fp32 matmul in an NVRTC kernel, one thread per output
element, one sequential fp32 sum each (less accurate than cuBLAS where cuBLAS splits K). Guards
the precision check against rejecting honest fp32 kernels; the twin of downcast_wmma_matmul.py's
task.

Expected: `correct` under both policies (the precision check runs under strict).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void matmul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                       long m, long k, long n) {
    long i = blockIdx.y * (long)blockDim.y + threadIdx.y;
    long j = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= m || j >= n) return;
    float s = 0.0f;
    for (long p = 0; p < k; ++p) s += a[i * k + p] * b[p * n + j];
    c[i * n + j] = s;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        m, k = A.shape
        n = B.shape[1]
        C = torch.empty(m, n, dtype=A.dtype, device=A.device)
        mod.matmul(grid=((n + 15) // 16, (m + 15) // 16), block=(16, 16), args=(A, B, C, m, k, n))
        return C
