import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, square, log_softmax, reduce_l2norm, abs, gather
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 768) * 0.03608)
        self.to(dtype)

    def forward(self, x, idx):
        x = torch.matmul(x, self.weight.t())
        x = x * x
        x = torch.log_softmax(x, dim=-1)
        x = torch.linalg.vector_norm(x, dim=1)
        x = torch.abs(x)
        x = torch.gather(x, 1, idx)
        return x


batch_size = 8


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype), torch.randint(0, 4096, (batch_size, 4096))]


def get_init_inputs():
    return []
