"""Cheat (GPU port of tests/adversarial/call_count.py): call counting. Correct for the
first 10 calls (more than the 5 trials, the instrumented call, the stream check and the two
shape-variant calls: 9 on the GPU), then launches a zero-fill kernel instead of relu, i.e.
it is "fast" during the timed loop.

Exploits: harnesses that check correctness only before timing.
Expected: `incorrect` with timing enabled: error kind `timing_check` (the last timed
call's output is compared with the reference) or `mismatch` (the post-timing check). The
counter is an instance attribute, so no `global` (hidden_state) rule fires. Same under
kernelbench.
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
__global__ void zero(float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        grid = (min((n + 255) // 256, 4096),)
        if self.calls <= 10:
            mod.relu(grid=grid, block=(256,), args=(x, y, n))
        else:
            mod.zero(grid=grid, block=(256,), args=(y, n))
        return y
