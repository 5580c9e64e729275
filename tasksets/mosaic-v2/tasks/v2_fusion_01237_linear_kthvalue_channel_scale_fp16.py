import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, kthvalue, channel_scale
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 1024, bias=True)
        self.scale = nn.Parameter(torch.rand(512,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.kthvalue(x, 102, dim=-1).values
        x = x * self.scale
        return x


batch_size = 65


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
