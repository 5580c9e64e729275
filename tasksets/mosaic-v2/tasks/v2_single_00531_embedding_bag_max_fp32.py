import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): embedding bag max (fp32).

    Ops: embedding_bag
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(128000, 2048, mode='max')
        self.to(dtype)

    def forward(self, ids):
        x = self.emb(ids)
        return x


batch_size = 433


def get_inputs():
    return [torch.randint(0, 128000, (batch_size, 2048))]


def get_init_inputs():
    return []
