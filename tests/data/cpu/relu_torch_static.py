"""Calls torch.relu in forward: strict rejects it before running anything."""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile("void noop(void) {}")


class ModelNew(nn.Module):
    def forward(self, x):
        lib.noop()
        return torch.relu(x)
