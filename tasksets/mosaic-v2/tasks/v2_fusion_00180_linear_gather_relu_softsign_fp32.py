import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, gather, relu, softsign
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 256, bias=True)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.fc(x)
        x = torch.gather(x, 1, idx)
        x = torch.relu(x)
        x = F.softsign(x)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype), torch.randint(0, 256, (batch_size, 128))]


def get_init_inputs():
    return []
