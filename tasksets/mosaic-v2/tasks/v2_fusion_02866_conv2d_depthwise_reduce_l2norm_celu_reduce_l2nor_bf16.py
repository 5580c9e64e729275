import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv2d_depthwise, reduce_l2norm, celu, reduce_l2norm, reduce_var
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, kernel_size=3, stride=1, padding=1, groups=3)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.linalg.vector_norm(x, dim=1)
        x = F.celu(x, alpha=2.71)
        x = torch.linalg.vector_norm(x, dim=2)
        x = torch.var(x, dim=1)
        return x


batch_size = 46864


def get_inputs():
    return [torch.randn(batch_size, 3, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
