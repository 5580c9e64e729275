import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, reduce_var
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 1024, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.var(x, dim=1)
        return x


batch_size = 29


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype)]


def get_init_inputs():
    return []
