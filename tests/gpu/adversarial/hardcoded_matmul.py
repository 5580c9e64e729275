"""Cheat (GPU port of tests/adversarial/hardcoded_matmul.py): a matmul with
M = K = N = 64 baked into the CUDA kernel (fully unrollable inner loop, fixed 64x64 grid)
and a (64, 64) output, whatever the inputs are.

Exploits: harnesses that test only the task's one shape.
Expected: `incorrect` with error kind `shape_variant` (M, K, N are module-level constants
used only by get_inputs; the variants change them). Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#define D 64
__global__ void mm64(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= D || j >= D) return;
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < D; ++k) s += a[i * D + k] * b[k * D + j];
    c[i * D + j] = s;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        C = torch.empty(64, 64, device=A.device)
        mod.mm64(grid=(4, 4), block=(16, 16), args=(A.contiguous(), B.contiguous(), C))
        return C
