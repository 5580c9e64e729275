import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, scan_cumprod, kthvalue, erf
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 8192, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.cumprod(1.0 + 0.01 * x, dim=2)
        x = torch.kthvalue(x, 2048, dim=-1).values
        x = torch.erf(x)
        return x


batch_size = 2


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype)]


def get_init_inputs():
    return []
