import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, cos, sqrt_abs, relu6, relu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 4096, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.cos(x)
        x = torch.sqrt(x.abs() + 0.07)
        x = F.relu6(x)
        x = torch.relu(x)
        return x


batch_size = 12


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
