"""Cheat (GPU port of tests/adversarial/precomputed_import.py): answers precomputed at
import. The candidate guesses that the harness seeds the CUDA generator with 42 before
get_inputs(), computes relu of that input on the GPU at import time, and returns a copy of
the stored answer from forward (fast: a memcpy kernel).

Exploits: harnesses with a fixed, guessable seed.
Expected: `incorrect` (mismatch): the verifier draws fresh random seeds per verification.
Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
__global__ void copy(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = x[i];
}
""")

torch.manual_seed(42)
_X = torch.randn(64, 1000, device="cuda")
_ANSWER = torch.empty_like(_X)
mod.relu(grid=(250,), block=(256,), args=(_X, _ANSWER, _X.numel()))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = min(y.numel(), _ANSWER.numel())
        mod.copy(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(_ANSWER, y, n))
        return y
