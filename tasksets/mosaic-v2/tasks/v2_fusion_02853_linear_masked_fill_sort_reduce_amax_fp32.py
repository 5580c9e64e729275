import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, masked_fill, sort, reduce_amax
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32768, 256, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x.masked_fill(x < 0.35, 0.0)
        x = torch.sort(x, dim=-1).values
        x = torch.amax(x, dim=1)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
