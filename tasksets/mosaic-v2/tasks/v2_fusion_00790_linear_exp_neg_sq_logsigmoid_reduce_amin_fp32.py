import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, exp_neg_sq, logsigmoid, reduce_amin
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 8192, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.exp(-x * x)
        x = F.logsigmoid(x)
        x = torch.amin(x, dim=2)
        return x


batch_size = 34


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype)]


def get_init_inputs():
    return []
