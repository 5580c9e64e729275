import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (loss): bce_logits loss, reduction=none (fp16).

    Ops: loss_bce_logits
    """

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = F.binary_cross_entropy_with_logits(predictions, torch.sigmoid(targets), reduction='none')
        return x


batch_size = 7201


def get_inputs():
    return [torch.randn(batch_size * 256, 512, dtype=dtype), torch.randn(batch_size * 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
