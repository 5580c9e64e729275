import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, index_select, binary_addcmul
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x, idx, y):
        x = torch.matmul(x, self.weight.t())
        x = torch.index_select(x, 2, idx)
        x = torch.addcmul(x, x, y, value=0.5)
        return x


batch_size = 1957


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype), torch.randint(0, 1024, (256,), dtype=torch.long), torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
