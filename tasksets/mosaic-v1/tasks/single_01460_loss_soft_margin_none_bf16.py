import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """soft_margin loss, reduction=none (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = F.soft_margin_loss(predictions, torch.sign(targets), reduction='none')
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size * 256, 128, dtype=dtype), torch.randn(batch_size * 256, 128, dtype=dtype)]


def get_init_inputs():
    return []
