import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, hardswish, elu, atan, gather
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32768, 512, bias=False)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.fc(x)
        x = F.hardswish(x)
        x = F.elu(x, alpha=1.61)
        x = torch.atan(x)
        x = torch.gather(x, 1, idx)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype), torch.randint(0, 512, (batch_size, 512))]


def get_init_inputs():
    return []
