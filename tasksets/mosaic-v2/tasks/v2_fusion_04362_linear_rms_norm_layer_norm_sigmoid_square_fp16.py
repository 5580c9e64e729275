import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, rms_norm, layer_norm, sigmoid, square
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 8192, bias=False)
        self.rms_weight = nn.Parameter(torch.ones(8192) + 0.1 * torch.randn(8192))
        self.ln = nn.LayerNorm(8192, eps=1e-6)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = self.ln(x)
        x = torch.sigmoid(x)
        x = x * x
        return x


batch_size = 154


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
