import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, tanh, relu6, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 8192, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.tanh(x)
        x = F.relu6(x)
        x = torch.mean(x.abs(), dim=1)
        return x


batch_size = 30120


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
