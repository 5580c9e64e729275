import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (indexing): embedding (bf16).

    Ops: embedding
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(32000, 1024)
        self.to(dtype)

    def forward(self, ids):
        x = self.emb(ids)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randint(0, 32000, (batch_size, 128))]


def get_init_inputs():
    return []
