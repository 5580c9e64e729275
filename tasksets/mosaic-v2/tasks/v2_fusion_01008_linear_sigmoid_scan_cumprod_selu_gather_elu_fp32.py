import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, sigmoid, scan_cumprod, selu, gather, elu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 8192, bias=True)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.fc(x)
        x = torch.sigmoid(x)
        x = torch.cumprod(1.0 + 0.01 * x, dim=1)
        x = F.selu(x)
        x = torch.gather(x, 1, idx)
        x = F.elu(x, alpha=1.06)
        return x


batch_size = 8512


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype), torch.randint(0, 8192, (batch_size, 16384))]


def get_init_inputs():
    return []
