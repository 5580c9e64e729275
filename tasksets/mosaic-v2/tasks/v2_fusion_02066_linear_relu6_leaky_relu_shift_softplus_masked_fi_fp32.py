import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, relu6, leaky_relu, shift, softplus, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 1024, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.relu6(x)
        x = F.leaky_relu(x, negative_slope=0.55)
        x = x + 0.26
        x = F.softplus(x, beta=0.74)
        x = x.masked_fill(x < 0.41, 0.0)
        return x


batch_size = 29


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype)]


def get_init_inputs():
    return []
