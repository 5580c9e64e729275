import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, shift, masked_fill, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8192, 512, bias=True)
        self.ln = nn.LayerNorm(512, eps=1e-6)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x + 0.35
        x = x.masked_fill(x < 0.46, 0.0)
        x = self.ln(x)
        return x


batch_size = 181260


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
