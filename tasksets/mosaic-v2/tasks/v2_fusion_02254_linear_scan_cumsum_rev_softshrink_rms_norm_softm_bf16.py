import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, scan_cumsum_rev, softshrink, rms_norm, softmax, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 2048, bias=False)
        self.rms_weight = nn.Parameter(torch.ones(2048) + 0.1 * torch.randn(2048))
        self.ln = nn.LayerNorm(2048, eps=1e-5)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.flip(torch.cumsum(torch.flip(x, [2]), dim=2), [2])
        x = F.softshrink(x, lambd=0.27)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = torch.softmax(x, dim=-1)
        x = self.ln(x)
        return x


batch_size = 30


def get_inputs():
    return [torch.randn(batch_size, 2048, 2048, dtype=dtype)]


def get_init_inputs():
    return []
