import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, l2_normalize, reduce_mean, gather
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x, idx):
        x = torch.matmul(x, self.weight.t())
        x = F.normalize(x, p=2.0, dim=-1)
        x = torch.mean(x, dim=1)
        x = torch.gather(x, 1, idx)
        return x


batch_size = 571


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype), torch.randint(0, 256, (batch_size, 256))]


def get_init_inputs():
    return []
