import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, clamp
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.clamp(x, min=-2.61, max=2.61)
        return x


batch_size = 700924


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
