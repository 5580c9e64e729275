"""BAD candidate (nvrtc) for KernelBench level1/19_ReLU.py: never terminates.

Before doing the ReLU, every thread spins on a volatile read of x[0] until it is >= 2.0. The task's
inputs come from torch.rand (values in [0, 1)), so the condition never holds; the volatile load
keeps the compiler from removing or hoisting the loop. The kernel (and the stream sync after it)
spins forever. Expected verdict: timeout.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__global__ __launch_bounds__(256) void relu_spin_forever(const float* x, float* y, long n) {
    volatile const float* vx = x;
    while (vx[0] < 2.0f) { }   // BUG: inputs are in [0, 1): never exits
    const long stride = (long)gridDim.x * blockDim.x;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride) {
        const float v = x[i];
        y[i] = v < 0.0f ? 0.0f : v;
    }
}
"""

mod = nvrtc.compile(SRC)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        blocks = max(1, min((n + 255) // 256, 132 * 16))
        mod.relu_spin_forever(grid=(blocks,), block=(256,), args=(x, y, n))
        return y
