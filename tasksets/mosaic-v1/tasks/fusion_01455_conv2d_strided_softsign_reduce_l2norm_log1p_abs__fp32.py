import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv2d_strided -> softsign -> reduce_l2norm -> log1p_abs -> reduce_logsumexp (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 64, kernel_size=5, stride=2, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.softsign(x)
        x = torch.linalg.vector_norm(x, dim=(2, 3))
        x = torch.log1p(x.abs())
        x = torch.logsumexp(x, dim=1)
        return x


batch_size = 106


def get_inputs():
    return [torch.randn(batch_size, 128, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
