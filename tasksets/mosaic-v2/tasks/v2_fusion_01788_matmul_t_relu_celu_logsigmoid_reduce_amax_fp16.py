import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: matmul_t, relu, celu, logsigmoid, reduce_amax
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 768) * 0.03608)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.relu(x)
        x = F.celu(x, alpha=2.94)
        x = F.logsigmoid(x)
        x = torch.amax(x, dim=2)
        return x


batch_size = 25


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype)]


def get_init_inputs():
    return []
