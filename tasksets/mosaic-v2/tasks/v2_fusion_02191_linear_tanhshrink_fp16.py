import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, tanhshrink
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 8192, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.tanhshrink(x)
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
