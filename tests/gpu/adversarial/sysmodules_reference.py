"""Cheat (GPU port of tests/adversarial/sysmodules_reference.py): scan sys.modules for the
harness's reference module and call its Model; a token NVRTC kernel runs so "a custom
kernel ran" holds.

Exploits: the reference module loaded in the candidate's process.
Expected: static `introspection` (sys.modules) in both policies. (Without it, strict
rejects only through the dynamic torch_compute, and kernelbench would pass it.)
"""
import sys

import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void touch(const float* __restrict__ x, float* __restrict__ acc, long n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) acc[0] = n > 0 ? x[0] : 0.f;
}
""")


def _find_reference():
    for name, m in list(sys.modules.items()):
        if name.startswith("kmosaic_reference") and hasattr(m, "Model"):
            return m.Model()
    return None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ref = _find_reference()

    def forward(self, x):
        acc = torch.empty(1, device=x.device)
        mod.touch(grid=(1,), block=(1,), args=(x, acc, x.numel()))
        return self.ref(x)
