import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, sign_sqrt, l2_normalize
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 32768) * 0.005524)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.normalize(x, p=2.0, dim=-1)
        return x


batch_size = 49152


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
