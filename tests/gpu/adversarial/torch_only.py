"""Cheat (GPU port of tests/adversarial/torch_only.py): torch-only forward. No kernel at
all; forward calls F.relu on the CUDA tensor.

Exploits: a harness that only compares outputs.
Expected: strict rejects statically with `torch_compute` (F.relu in forward) and
`no_custom_kernel` (nothing built with nvrtc.compile). kernelbench rejects with
`no_custom_kernel`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.relu(x)
