import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (loss): l1 loss, reduction=none (bf16).

    Ops: loss_l1
    """

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = F.l1_loss(predictions, targets, reduction='none')
        return x


batch_size = 880


def get_inputs():
    return [torch.randn(batch_size * 64, 8192, dtype=dtype), torch.randn(batch_size * 64, 8192, dtype=dtype)]


def get_init_inputs():
    return []
