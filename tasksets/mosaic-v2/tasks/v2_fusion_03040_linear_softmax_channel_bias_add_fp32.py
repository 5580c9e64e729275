import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, softmax_channel, bias_add
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 256, bias=False)
        self.bias = nn.Parameter(torch.randn(256,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.softmax(x, dim=1)
        x = x + self.bias
        return x


batch_size = 1349


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
