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
        x = F.margin_ranking_loss(predictions, targets, signs, margin=0.86, reduction='sum')
        return x


batch_size = 550


def get_inputs():
    return [torch.randn(batch_size * 64, 8192, dtype=dtype), torch.randn(batch_size * 64, 8192, dtype=dtype), torch.randint(0, 2, (batch_size * 64, 8192)).to(dtype) * 2 - 1]


def get_init_inputs():
    return []
