import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: logsigmoid, swish_beta
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.logsigmoid(x)
        x = x * torch.sigmoid(1.27 * x)
        return x


batch_size = 4071


def get_inputs():
    return [torch.randn(batch_size, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
