import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: linear, relu6, gelu, softplus, bias_add, softmax_temp, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 512, bias=True)
        self.bias = nn.Parameter(torch.randn(512,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.relu6(x)
        x = F.gelu(x)
        x = F.softplus(x, beta=2.32)
        x = x + self.bias
        x = torch.softmax(x / 1.29, dim=-1)
        x = x * torch.sigmoid(r)
        return x


batch_size = 174


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype)]


def get_init_inputs():
    return []
