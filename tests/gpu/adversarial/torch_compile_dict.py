"""Cheat (GPU port of tests/adversarial/torch_compile_dict.py): torch.compile reached
through `torch.__dict__["com" + "pile"]`; the compiled function (dynamo, "eager" backend)
does the work; a token NVRTC kernel runs too.

Exploits: static rules that match dotted names and getattr only.
Expected: `torch_compile` or `introspection` (module __dict__ access) in both policies.
If missed: strict rejects only through the dynamic torch_compute, kernelbench passes it.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void touch(const float* __restrict__ x, float* __restrict__ acc, long n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) acc[0] = n > 0 ? x[0] : 0.f;
}
""")


def _relu(x):
    return torch.relu(x)


_fast = torch.__dict__["com" + "pile"](_relu, backend="eager")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        acc = torch.empty(1, device=x.device)
        mod.touch(grid=(1,), block=(1,), args=(x, acc, x.numel()))
        return _fast(x)
