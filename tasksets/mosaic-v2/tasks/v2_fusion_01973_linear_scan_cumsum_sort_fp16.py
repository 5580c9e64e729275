import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, scan_cumsum, sort
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 1024, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.cumsum(x, dim=2)
        x = torch.sort(x, dim=0).values
        return x


batch_size = 343


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype)]


def get_init_inputs():
    return []
