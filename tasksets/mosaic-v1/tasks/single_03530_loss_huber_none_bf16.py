import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """huber loss, reduction=none (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = F.huber_loss(predictions, targets, delta=1.04, reduction='none')
        return x


batch_size = 2921


def get_inputs():
    return [torch.randn(batch_size * 64, 4096, dtype=dtype), torch.randn(batch_size * 64, 4096, dtype=dtype)]


def get_init_inputs():
    return []
