"""Cheat (GPU variant of torch_only/dead_branch): the nvrtc launcher is imported, which is
what a static "a custom kernel exists" check looks for, but nothing is ever compiled or
launched; forward computes with a torch method (x.clamp_min(0)), invisible to the static
strict rule.

Exploits: a static no_custom_kernel rule satisfied by the import alone.
Expected: strict: dynamic `torch_compute` (aten.clamp_min) and `no_kernel_launched`.
kernelbench: `no_custom_kernel` (static) or `no_kernel_launched` (dynamic: nothing ran).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc  # noqa: F401  (never used)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.clamp_min(0)
