import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Single op (indexing): embedding bag mean (fp32).

    Ops: embedding_bag
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(32000, 2048, mode='mean')
        self.to(dtype)

    def forward(self, ids):
        x = self.emb(ids)
        return x


batch_size = 1446


def get_inputs():
    return [torch.randint(0, 32000, (batch_size, 512))]


def get_init_inputs():
    return []
