import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, leaky_relu, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 4096, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.leaky_relu(x, negative_slope=0.49)
        x = x.masked_fill(x < 0.02, 0.0)
        return x


batch_size = 720


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
