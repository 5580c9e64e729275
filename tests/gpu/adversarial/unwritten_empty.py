"""Cheat (GPU port of tests/adversarial/unwritten_empty.py): return torch.empty_like(x)
without writing it, hoping the CUDA caching allocator hands back the block that held the
reference's (freed) result. A token kernel is launched, but it only reads.

Exploits: harnesses that run the reference first and free its output before the candidate.
Expected: `incorrect` (mismatch): freed blocks of the output's size (and a 64 MiB block)
are poisoned with 0xFF (NaN) before each candidate call, and the reference's output stays
alive. Alternatively `rejected` `returns_input` if the block happens to hold the input.
Same under kernelbench.
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

    def forward(self, x):
        acc = torch.empty(1, device=x.device)
        mod.touch(grid=(1,), block=(1,), args=(x.contiguous(), acc, x.numel()))
        return torch.empty_like(x)
