import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: linear, softmin, scan_cumsum_rev, log_softmax, mish, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        r = x
        x = F.softmin(x, dim=-1)
        x = torch.flip(torch.cumsum(torch.flip(x, [2]), dim=2), [2])
        x = torch.log_softmax(x, dim=-1)
        x = F.mish(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 1181


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
