"""Cheat (GPU port of tests/adversarial/thread_background.py): a background Python thread
launches the kernel and forward returns the (not yet written) output at once, so a timer
around forward measures only the thread start.

Exploits: timing without a barrier on the candidate's own asynchronous work.
Expected: static `threads_or_processes` (import threading) in both policies.
"""
import threading

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


def _launch(x, y, n):
    mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        threading.Thread(target=_launch, args=(x, y, x.numel()), daemon=True).start()
        return y
