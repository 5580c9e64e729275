import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, mish, softshrink
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 512, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.mish(x)
        x = F.softshrink(x, lambd=0.56)
        return x


batch_size = 389


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype)]


def get_init_inputs():
    return []
