import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """linear -> celu -> layer_norm -> sin -> log1p_abs -> softplus (bf16)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32768, 512, bias=False)
        self.ln = nn.LayerNorm(512, eps=1e-5)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.celu(x, alpha=2.59)
        x = self.ln(x)
        x = torch.sin(x)
        x = torch.log1p(x.abs())
        x = F.softplus(x, beta=1.4)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
