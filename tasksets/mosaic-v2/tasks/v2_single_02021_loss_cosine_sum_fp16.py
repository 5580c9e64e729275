import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Single op (loss): cosine loss (fp16).

    Ops: loss_cosine
    """

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        x = 1.0 - F.cosine_similarity(predictions, targets, dim=-1)
        return x


batch_size = 30617


def get_inputs():
    return [torch.randn(batch_size * 256, 128, dtype=dtype), torch.randn(batch_size * 256, 128, dtype=dtype)]


def get_init_inputs():
    return []
