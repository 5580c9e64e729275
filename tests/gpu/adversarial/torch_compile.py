"""Cheat (GPU port of tests/adversarial/torch_compile.py): torch.compile inside ModelNew.
Inductor writes the (Triton) kernel, not the candidate; a token NVRTC kernel runs too so
that "a custom kernel ran" holds.

Exploits: benchmarks that would credit inductor's code to the candidate.
Expected: static `torch_compile` in both policies (strict also `torch_compute`).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void touch(const float* __restrict__ x, float* __restrict__ acc, long n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) acc[0] = n > 0 ? x[0] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = torch.compile(torch.relu)

    def forward(self, x):
        acc = torch.empty(1, device=x.device)
        mod.touch(grid=(1,), block=(1,), args=(x, acc, x.numel()))
        return self.fn(x)
