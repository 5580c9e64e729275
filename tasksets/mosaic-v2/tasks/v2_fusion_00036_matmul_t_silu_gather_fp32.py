import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, silu, gather
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x, idx):
        x = torch.matmul(x, self.weight.t())
        x = F.silu(x)
        x = torch.gather(x, 1, idx)
        return x


batch_size = 79396


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype), torch.randint(0, 2048, (batch_size, 4096))]


def get_init_inputs():
    return []
