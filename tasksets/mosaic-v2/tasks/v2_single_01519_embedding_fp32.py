import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): embedding (fp32).

    Ops: embedding
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(8192, 512)
        self.to(dtype)

    def forward(self, ids):
        x = self.emb(ids)
        return x


batch_size = 3072


def get_inputs():
    return [torch.randint(0, 8192, (batch_size, 512))]


def get_init_inputs():
    return []
