import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, sigmoid, selu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 512, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.sigmoid(x)
        x = F.selu(x)
        return x


batch_size = 538116


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
