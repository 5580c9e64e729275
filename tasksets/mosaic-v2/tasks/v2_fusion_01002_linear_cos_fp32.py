import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, cos
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32768, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.cos(x)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
