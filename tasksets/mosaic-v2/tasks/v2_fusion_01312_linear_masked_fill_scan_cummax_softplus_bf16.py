import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, masked_fill, scan_cummax, softplus
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 8192, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x.masked_fill(x < 0.22, 0.0)
        x = torch.cummax(x, dim=1).values
        x = F.softplus(x, beta=1.43)
        return x


batch_size = 35326


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
