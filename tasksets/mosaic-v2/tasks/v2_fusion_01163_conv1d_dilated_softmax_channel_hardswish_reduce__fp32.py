import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_dilated, softmax_channel, hardswish, reduce_l2norm, scan_cumsum_rev
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 256, kernel_size=5, stride=1, padding=4, dilation=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.softmax(x, dim=1)
        x = F.hardswish(x)
        x = torch.linalg.vector_norm(x, dim=(2,))
        x = torch.flip(torch.cumsum(torch.flip(x, [1]), dim=1), [1])
        return x


batch_size = 380


def get_inputs():
    return [torch.randn(batch_size, 8, 2048, dtype=dtype)]


def get_init_inputs():
    return []
