import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, rsqrt_sq, relu6, sin, reduce_mean
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.rsqrt(x * x + 1.0)
        x = F.relu6(x)
        x = torch.sin(x)
        x = torch.mean(x, dim=1)
        return x


batch_size = 583354


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
