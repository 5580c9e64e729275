import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """matmul_t -> abs -> cos -> channel_scale -> rms_norm -> softshrink (fp16)."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 768) * 0.03608)
        self.scale = nn.Parameter(torch.rand(4096,) + 0.5)
        self.rms_weight = nn.Parameter(torch.ones(4096) + 0.1 * torch.randn(4096))
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.abs(x)
        x = torch.cos(x)
        x = x * self.scale
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = F.softshrink(x, lambd=0.19)
        return x


batch_size = 289


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
