import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, softplus, binary_addcmul, topk, clamp
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 4096, bias=False)
        self.to(dtype)

    def forward(self, x, y):
        x = self.fc(x)
        x = F.softplus(x, beta=1.03)
        x = torch.addcmul(x, x, y, value=0.5)
        x = torch.topk(x, 8, dim=-1).values
        x = torch.clamp(x, min=-2.46, max=2.46)
        return x


batch_size = 380


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype), torch.randn(batch_size, 128, 4096, dtype=dtype)]


def get_init_inputs():
    return []
