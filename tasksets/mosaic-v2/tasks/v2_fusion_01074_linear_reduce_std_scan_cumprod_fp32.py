import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, reduce_std, scan_cumprod
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.std(x, dim=2)
        x = torch.cumprod(1.0 + 0.01 * x, dim=1)
        return x


batch_size = 16


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
