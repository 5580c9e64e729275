import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, reduce_mean, hardsigmoid, reduce_mean, softsign, relu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.mean(x, dim=1)
        x = F.hardsigmoid(x)
        x = torch.mean(x, dim=1)
        x = F.softsign(x)
        x = torch.relu(x)
        return x


batch_size = 769


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype)]


def get_init_inputs():
    return []
