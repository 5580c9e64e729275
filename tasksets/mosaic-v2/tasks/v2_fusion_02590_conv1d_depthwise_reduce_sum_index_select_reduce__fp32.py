import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_depthwise, reduce_sum, index_select, reduce_std
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(64, 64, kernel_size=5, stride=1, padding=2, groups=64, bias=False)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.conv(x)
        x = torch.sum(x, dim=(2,))
        x = torch.index_select(x, 1, idx)
        x = torch.std(x, dim=1)
        return x


batch_size = 7338


def get_inputs():
    return [torch.randn(batch_size, 64, 1024, dtype=dtype), torch.randint(0, 64, (16,), dtype=torch.long)]


def get_init_inputs():
    return []
