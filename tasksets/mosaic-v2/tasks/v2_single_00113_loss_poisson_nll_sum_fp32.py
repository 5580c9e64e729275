import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (loss): poisson_nll loss, reduction=sum (fp32).

    Ops: loss_poisson_nll
    """

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = F.poisson_nll_loss(predictions, targets.abs(), log_input=True, reduction='sum')
        return x


batch_size = 5738


def get_inputs():
    return [torch.randn(batch_size * 64, 1000, dtype=dtype), torch.randn(batch_size * 64, 1000, dtype=dtype)]


def get_init_inputs():
    return []
