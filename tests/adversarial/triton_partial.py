"""Cheat (triton backend): partial grid. The launch covers only the first half of the
elements (half the programs), so the kernel is "2x faster"; the rest of the output is
whatever torch.empty_like left.

Exploits: spot checks, or stale memory holding the reference's result.
Expected: `incorrect` (mismatch; the unwritten half reads as poison NaN). Same under
kernelbench.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 2 * 4096),)](x, y, n, BLOCK=4096)
        return y
