import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, log_softmax, frac_sin, celu, elu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.log_softmax(x, dim=-1)
        x = torch.sin(0.79 * x) * x
        x = F.celu(x, alpha=1.81)
        x = F.elu(x, alpha=0.85)
        return x


batch_size = 216


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype)]


def get_init_inputs():
    return []
