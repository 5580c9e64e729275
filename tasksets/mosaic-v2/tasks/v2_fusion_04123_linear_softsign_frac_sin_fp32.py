import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, softsign, frac_sin
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 4096, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.softsign(x)
        x = torch.sin(2.87 * x) * x
        return x


batch_size = 37


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
