import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, reduce_amax, hardsigmoid, tanh, softplus, relu
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 8192, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.amax(x, dim=1)
        x = F.hardsigmoid(x)
        x = torch.tanh(x)
        x = F.softplus(x, beta=2.01)
        x = torch.relu(x)
        return x


batch_size = 282537


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
