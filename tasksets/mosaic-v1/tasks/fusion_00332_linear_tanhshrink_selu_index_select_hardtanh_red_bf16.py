import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """linear -> tanhshrink -> selu -> index_select -> hardtanh -> reduce_mean (bf16)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8192, 2048, bias=True)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.fc(x)
        x = F.tanhshrink(x)
        x = F.selu(x)
        x = torch.index_select(x, 1, idx)
        x = F.hardtanh(x, min_val=-1.46, max_val=1.46)
        x = torch.mean(x, dim=1)
        return x


batch_size = 162271


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype), torch.randint(0, 2048, (2048,), dtype=torch.long)]


def get_init_inputs():
    return []
