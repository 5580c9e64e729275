import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv1d_dilated -> reduce_mean -> scan_cumsum_rev -> rms_norm -> erf -> l2_normalize (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 16, kernel_size=3, stride=1, padding=2, dilation=2)
        self.rms_weight = nn.Parameter(torch.ones(16) + 0.1 * torch.randn(16))
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.mean(x, dim=(2,))
        x = torch.flip(torch.cumsum(torch.flip(x, [1]), dim=1), [1])
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = torch.erf(x)
        x = F.normalize(x, p=2.0, dim=-1)
        return x


batch_size = 9554


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
