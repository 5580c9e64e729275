import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, gelu_tanh, gelu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 256, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.gelu(x, approximate='tanh')
        x = F.gelu(x)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
