"""Cheat (GPU port of tests/adversarial/try_fallback.py): try/except fallback to torch
around the kernel launch. The kernel is launched with a wrong argument type (a Python float
for a pointer parameter), so the launcher always raises, and `except Exception` silently
falls back to torch.relu.

Exploits: "a kernel is launched or attempted" checks; hides a broken kernel.
Expected: static `broad_except` and `try_in_forward` in both policies (strict also
`torch_compute` for torch.relu).
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
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        try:
            mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, 1.0, n))  # always raises
            return y
        except Exception:
            return torch.relu(x)
