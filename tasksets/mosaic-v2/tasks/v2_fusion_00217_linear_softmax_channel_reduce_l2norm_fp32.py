import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, softmax_channel, reduce_l2norm
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 256, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.softmax(x, dim=1)
        x = torch.linalg.vector_norm(x, dim=1)
        return x


batch_size = 2967


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
