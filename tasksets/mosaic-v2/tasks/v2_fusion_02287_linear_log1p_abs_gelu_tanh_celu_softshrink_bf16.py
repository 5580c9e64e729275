import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, log1p_abs, gelu_tanh, celu, softshrink
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 4096, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.log1p(x.abs())
        x = F.gelu(x, approximate='tanh')
        x = F.celu(x, alpha=2.45)
        x = F.softshrink(x, lambd=0.17)
        return x


batch_size = 573


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
