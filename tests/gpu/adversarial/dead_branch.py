"""Cheat (GPU port of tests/adversarial/dead_branch.py): dead-branch NVRTC kernel. A real
relu kernel is compiled with NVRTC (so "a custom kernel exists"), but the branch that
launches it never runs; the work is done by a torch *method* (`x.clamp_min(0)`), which the
static strict rule (torch.* calls) does not see.

Exploits: checks that only look for a compiled kernel in the source.
Expected: strict: dynamic `torch_compute` (aten.clamp_min) and `no_kernel_launched`.
kernelbench: dynamic `no_kernel_launched` (no launch record, and the profiler shows no
`relu` kernel on the GPU).
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
        if x.dim() > 8:  # never true for this task
            x = x.contiguous()
            y = torch.empty_like(x)
            n = x.numel()
            mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
            return y
        return x.clamp_min(0)
