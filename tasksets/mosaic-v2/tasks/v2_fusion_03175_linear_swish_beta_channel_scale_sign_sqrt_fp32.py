import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, swish_beta, channel_scale, sign_sqrt
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 512, bias=False)
        self.scale = nn.Parameter(torch.rand(512,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * torch.sigmoid(2.83 * x)
        x = x * self.scale
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 82


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
