"""Cheat (GPU port of tests/adversarial/exec_eval.py): eval to hide names from a static
checker: the torch call is built from a string at run time (`eval("torch." + "relu")`),
and a token NVRTC kernel runs.

Exploits: static rules that read only literal names.
Expected: static `introspection` (eval) in both policies.
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
        self.fn = eval("torch." + "relu")

    def forward(self, x):
        acc = torch.empty(1, device=x.device)
        mod.touch(grid=(1,), block=(1,), args=(x, acc, x.numel()))
        return self.fn(x)
