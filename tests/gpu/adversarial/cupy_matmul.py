"""Cheat (library compute, GPU): CuPy computes the matrix product (cuBLAS underneath) on the
tensors' memory, handed over with DLPack, and an NVRTC kernel copies CuPy's result into the
output so that "the candidate's own kernel ran". No torch op computes, so the dispatch-mode
watch (`torch_compute`) sees nothing.

Exploits: strict watching only aten ops. Before issue 15 this passed strict.
Expected: strict refuses CuPy math and DLPack hand-over statically (`rejected`, rule
`library_compute`); its cuBLAS kernels would also be found by exact name in the profile.
kernelbench allows library compute: `correct`.
"""
import cupy as cp
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void copy(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = x[i];
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A = A.contiguous()
        B = B.contiguous()
        prod = cp.matmul(cp.from_dlpack(A), cp.from_dlpack(B))  # on CuPy's stream: the legacy default one
        P = torch.from_dlpack(prod)
        C = torch.empty(A.shape[0], B.shape[1], dtype=A.dtype, device=A.device)
        n = C.numel()
        mod.copy(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(P, C, n))
        return C
