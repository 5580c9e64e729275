import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d, reduce_amin, reduce_l2norm, leaky_relu, gelu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 128, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.amin(x, dim=(2,))
        x = torch.linalg.vector_norm(x, dim=1)
        x = F.leaky_relu(x, negative_slope=0.11)
        x = F.gelu(x)
        return x


batch_size = 1375


def get_inputs():
    return [torch.randn(batch_size, 32, 4096, dtype=dtype)]


def get_init_inputs():
    return []
