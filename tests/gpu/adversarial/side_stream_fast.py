"""Cheat (GPU only): the ReLU runs on a private `torch.cuda.Stream()` and forward returns with
nothing ordering the caller's stream after it. Unlike side_stream.py the kernel is short (a
plain ReLU), so the copy the candidate process makes on the caller's stream right after forward
usually finds the output finished: the race check (copy vs. output after a device-wide sync)
passed it, as measured before issue 15.

Exploits: a stream check that races the side stream instead of looking at what ran where.
Expected: `rejected` with `unsynchronized_output` under both policies, decided from the
profiler's records: the kernel's stream is not the caller's, and no event wait on the caller's
stream and no synchronize orders it back.
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
side = torch.cuda.Stream()


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        side.wait_stream(torch.cuda.current_stream())  # inputs ready; the output is never waited for
        with torch.cuda.stream(side):
            mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        return y
