import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, cube, softmax_temp, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 1024, bias=True)
        self.ln = nn.LayerNorm(1024, eps=1e-6)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * x * x
        x = torch.softmax(x / 3.67, dim=-1)
        x = self.ln(x)
        return x


batch_size = 529


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype)]


def get_init_inputs():
    return []
