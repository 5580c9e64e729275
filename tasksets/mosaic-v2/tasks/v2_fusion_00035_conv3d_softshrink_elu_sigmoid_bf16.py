import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv3d, softshrink, elu, sigmoid
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(16, 128, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.softshrink(x, lambd=0.46)
        x = F.elu(x, alpha=2.33)
        x = torch.sigmoid(x)
        return x


batch_size = 200


def get_inputs():
    return [torch.randn(batch_size, 16, 8, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
