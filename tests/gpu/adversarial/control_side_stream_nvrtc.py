"""Control (not a cheat): the ReLU runs on a private stream and is ordered back properly: the
caller's stream waits on the side stream (`wait_stream`: an event recorded on the side stream
after the kernel, and `cudaStreamWaitEvent` on the caller's stream), and the output's memory is
marked as used on the side stream. Guards the profiler-based stream check against rejecting
correct multi-stream code.

Expected: `correct` under both policies.
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
        caller = torch.cuda.current_stream()
        side.wait_stream(caller)
        with torch.cuda.stream(side):
            mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        caller.wait_stream(side)
        x.record_stream(side)
        y.record_stream(side)
        return y
