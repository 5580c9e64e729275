import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: linear, hardtanh, residual_add
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.hardtanh(x, min_val=-2.59, max_val=2.59)
        x = x + r
        return x


batch_size = 14


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype)]


def get_init_inputs():
    return []
