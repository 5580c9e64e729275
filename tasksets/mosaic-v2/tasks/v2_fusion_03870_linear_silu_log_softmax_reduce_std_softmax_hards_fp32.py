import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, silu, log_softmax, reduce_std, softmax, hardswish
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.silu(x)
        x = torch.log_softmax(x, dim=-1)
        x = torch.std(x, dim=2)
        x = torch.softmax(x, dim=-1)
        x = F.hardswish(x)
        return x


batch_size = 184


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
