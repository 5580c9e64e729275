import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (loss): soft_margin loss, reduction=none (fp32).

    Ops: loss_soft_margin
    """

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = F.soft_margin_loss(predictions, torch.sign(targets), reduction='none')
        return x


batch_size = 4853


def get_inputs():
    return [torch.randn(batch_size * 256, 512, dtype=dtype), torch.randn(batch_size * 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
