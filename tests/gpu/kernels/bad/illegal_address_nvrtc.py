"""BAD candidate (nvrtc) for KernelBench level1/19_ReLU.py: illegal memory access.

Computes ReLU but stores element i at y[i * 1000003]: almost every store lands far past the
output allocation (up to ~6.4e15 bytes, beyond any mapped device memory), so the kernel faults and
the next synchronisation raises a CUDA error. On an H200 (torch 2.11, driver 580) the error seen was
cudaErrorInvalidAddressSpace ("operation not supported on global/shared address space") rather than
cudaErrorIllegalAddress: the far addresses fall outside the global window. Either way the CUDA
context is dead. Expected verdict: runtime_error.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
__global__ __launch_bounds__(256) void relu_scatter_oob(const float* __restrict__ x, float* __restrict__ y, long n) {
    const long stride = (long)gridDim.x * blockDim.x;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride) {
        const float v = x[i];
        y[i * 1000003L] = v < 0.0f ? 0.0f : v;   // BUG: index scaled far outside the output
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
        mod.relu_scatter_oob(grid=(blocks,), block=(256,), args=(x, y, n))
        return y
