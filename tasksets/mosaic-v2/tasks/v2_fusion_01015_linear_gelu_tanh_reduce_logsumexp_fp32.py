import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, gelu_tanh, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 4096, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.gelu(x, approximate='tanh')
        x = torch.logsumexp(x, dim=2)
        return x


batch_size = 82


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
