"""Cheat (triton backend): a @triton.jit kernel is defined (so "a custom kernel exists"), but
forward never launches it and computes with a torch method instead (x.clamp_min(0)).

Exploits: checks that only look for a kernel definition.
Expected: strict: dynamic `torch_compute` (and `no_kernel_launched`). kernelbench:
dynamic `no_kernel_launched`.
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
        if x.numel() < 0:
            y = torch.empty_like(x)
            relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
            return y
        return x.clamp_min(0)
