import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, softplus, binary_addcmul, scan_cumsum, scan_logcumsumexp, reduce_sum
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 256, bias=True)
        self.to(dtype)

    def forward(self, x, y):
        x = self.fc(x)
        x = F.softplus(x, beta=1.5)
        x = torch.addcmul(x, x, y, value=0.5)
        x = torch.cumsum(x, dim=2)
        x = torch.logcumsumexp(x, dim=2)
        x = torch.sum(x, dim=2)
        return x


batch_size = 405


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype), torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
