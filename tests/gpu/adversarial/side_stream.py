"""Cheat (GPU only; the GPU analogue of tests/adversarial/thread_c_async.py): the kernel is
launched on a private `torch.cuda.Stream()` and forward returns without making the
caller's stream wait for it. The side stream waits for the caller's stream (so the inputs
are ready), but nothing orders the caller's stream after the side stream, so an event timer
recorded on the current stream measures only the launch. The kernel spins ~a million
dependent FMAs per element (milliseconds), so the race is never close.

Exploits: event timers on the current stream without a device-wide barrier; checks that
read the output only after torch.cuda.synchronize().
Expected: `rejected` with `unsynchronized_output` in both policies (the output copied on
the caller's stream right after forward returns is wrong, while it is right after a
device-wide sync). Every trial passes (the harness syncs after each call).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu_slow(const float* __restrict__ x, float* __restrict__ y, long n, long spin) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        float v = x[i], acc = 0.f;
        for (long k = 0; k < spin; ++k) acc = fmaf(acc, 0.999f, 1e-7f);
        y[i] = fmaxf(v, 0.f) + acc * 0.f;
    }
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
            mod.relu_slow(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n, 1 << 20))
        return y
