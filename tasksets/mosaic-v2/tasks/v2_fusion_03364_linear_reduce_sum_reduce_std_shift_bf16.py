import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, reduce_sum, reduce_std, shift
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 1024, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.sum(x, dim=2)
        x = torch.std(x, dim=1)
        x = x + 0.1
        return x


batch_size = 654


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype)]


def get_init_inputs():
    return []
