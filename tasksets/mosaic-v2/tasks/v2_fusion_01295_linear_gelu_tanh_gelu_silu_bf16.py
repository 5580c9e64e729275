import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, gelu_tanh, gelu, silu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 4096, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.gelu(x, approximate='tanh')
        x = F.gelu(x)
        x = F.silu(x)
        return x


batch_size = 487


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype)]


def get_init_inputs():
    return []
