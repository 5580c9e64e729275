import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sigmoid, abs, scale, gelu, swish_beta, instance_norm
    """

    def __init__(self):
        super().__init__()
        self.inorm = nn.InstanceNorm3d(16, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = torch.sigmoid(x)
        x = torch.abs(x)
        x = x * 1.44
        x = F.gelu(x)
        x = x * torch.sigmoid(2.07 * x)
        x = self.inorm(x)
        return x


batch_size = 4584


def get_inputs():
    return [torch.randn(batch_size, 16, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
