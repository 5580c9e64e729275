import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, argmax
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16384, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.argmax(x, dim=-1)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
