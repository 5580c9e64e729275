import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """poisson_nll loss, reduction=none (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = F.poisson_nll_loss(predictions, targets.abs(), log_input=True, reduction='none')
        return x


batch_size = 7363


def get_inputs():
    return [torch.randn(batch_size * 64, 1000, dtype=dtype), torch.randn(batch_size * 64, 1000, dtype=dtype)]


def get_init_inputs():
    return []
