import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, reduce_amax, relu6
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 2048, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.amax(x, dim=2)
        x = F.relu6(x)
        return x


batch_size = 174


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
