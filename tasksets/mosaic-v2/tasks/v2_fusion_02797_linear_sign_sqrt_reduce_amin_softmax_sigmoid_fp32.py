import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, sign_sqrt, reduce_amin, softmax, sigmoid
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 2048, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = torch.amin(x, dim=2)
        x = torch.softmax(x, dim=-1)
        x = torch.sigmoid(x)
        return x


batch_size = 271


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
