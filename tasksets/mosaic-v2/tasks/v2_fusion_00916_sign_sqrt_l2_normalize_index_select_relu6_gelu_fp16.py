import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: sign_sqrt, l2_normalize, index_select, relu6, gelu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.normalize(x, p=2.0, dim=-1)
        x = torch.index_select(x, 2, idx)
        x = F.relu6(x)
        x = F.gelu(x)
        return x


batch_size = 71


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype), torch.randint(0, 2048, (2048,), dtype=torch.long)]


def get_init_inputs():
    return []
