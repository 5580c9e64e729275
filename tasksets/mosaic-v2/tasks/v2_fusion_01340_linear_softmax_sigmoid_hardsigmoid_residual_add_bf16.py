import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (bf16).

    Ops: linear, softmax, sigmoid, hardsigmoid, residual_add
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4096, 2048, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.softmax(x, dim=-1)
        x = torch.sigmoid(x)
        x = F.hardsigmoid(x)
        x = x + r
        return x


batch_size = 92072


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
