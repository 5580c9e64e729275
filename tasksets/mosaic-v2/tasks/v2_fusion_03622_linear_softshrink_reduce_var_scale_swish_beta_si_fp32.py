import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, softshrink, reduce_var, scale, swish_beta, sign_sqrt
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.softshrink(x, lambd=0.5)
        x = torch.var(x, dim=2)
        x = x * 2.03
        x = x * torch.sigmoid(2.51 * x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 196


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype)]


def get_init_inputs():
    return []
