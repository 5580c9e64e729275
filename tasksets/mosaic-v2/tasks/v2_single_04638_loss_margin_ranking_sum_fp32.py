import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (loss): margin_ranking loss, reduction=sum (fp32).

    Ops: loss_margin_ranking
    """

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets, signs):
        x = F.margin_ranking_loss(predictions, targets, signs, margin=0.56, reduction='sum')
        return x


batch_size = 48552


def get_inputs():
    return [torch.randn(batch_size * 64, 128, dtype=dtype), torch.randn(batch_size * 64, 128, dtype=dtype), torch.randint(0, 2, (batch_size * 64, 128)).to(dtype) * 2 - 1]


def get_init_inputs():
    return []
