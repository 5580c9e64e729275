import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """bmm -> hardtanh -> binary_lerp -> argmax (fp16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, y):
        x = torch.bmm(x, w)
        x = F.hardtanh(x, min_val=-1.53, max_val=1.53)
        x = torch.lerp(x, y, 0.3)
        x = torch.argmax(x, dim=-1)
        return x


batch_size = 1818


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype), torch.randn(batch_size, 768, 256, dtype=dtype) / 27.71, torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
