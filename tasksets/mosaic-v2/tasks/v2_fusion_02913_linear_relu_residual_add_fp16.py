import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp16).

    Ops: linear, relu, residual_add
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = torch.relu(x)
        x = x + r
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
