import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, sign_sqrt, square, swish_beta
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 8192, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x * x
        x = x * torch.sigmoid(0.66 * x)
        return x


batch_size = 8


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
