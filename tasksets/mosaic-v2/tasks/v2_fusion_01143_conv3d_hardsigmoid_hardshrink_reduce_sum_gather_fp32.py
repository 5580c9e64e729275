import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv3d, hardsigmoid, hardshrink, reduce_sum, gather
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 256, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.conv(x)
        x = F.hardsigmoid(x)
        x = F.hardshrink(x, lambd=0.58)
        x = torch.sum(x, dim=(2, 3, 4))
        x = torch.gather(x, 1, idx)
        return x


batch_size = 7


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 64, 64, dtype=dtype), torch.randint(0, 256, (batch_size, 256))]


def get_init_inputs():
    return []
