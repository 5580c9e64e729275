import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: matmul_t, softmax, reduce_amax, atan, hardsigmoid
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 8192) * 0.01105)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.softmax(x, dim=-1)
        x = torch.amax(x, dim=1)
        x = torch.atan(x)
        x = F.hardsigmoid(x)
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
