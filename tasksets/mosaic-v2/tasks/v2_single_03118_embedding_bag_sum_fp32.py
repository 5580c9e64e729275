import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): embedding bag sum (fp32).

    Ops: embedding_bag
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(50257, 256, mode='sum')
        self.to(dtype)

    def forward(self, ids):
        x = self.emb(ids)
        return x


batch_size = 3411


def get_inputs():
    return [torch.randint(0, 50257, (batch_size, 2048))]


def get_init_inputs():
    return []
