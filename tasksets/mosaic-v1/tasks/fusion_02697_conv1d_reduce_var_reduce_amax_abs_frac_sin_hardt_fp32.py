import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv1d -> reduce_var -> reduce_amax -> abs -> frac_sin -> hardtanh (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 16, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.var(x, dim=(2,))
        x = torch.amax(x, dim=1)
        x = torch.abs(x)
        x = torch.sin(2.93 * x) * x
        x = F.hardtanh(x, min_val=-0.8, max_val=0.8)
        return x


batch_size = 1642


def get_inputs():
    return [torch.randn(batch_size, 8, 16384, dtype=dtype)]


def get_init_inputs():
    return []
