import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, reduce_sum, softmin, sign_sqrt, relu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = torch.sum(x, dim=1)
        x = F.softmin(x, dim=-1)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = torch.relu(x)
        return x


batch_size = 4459


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
