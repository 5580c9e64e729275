import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Single op (indexing): embedding bag max (bf16).

    Ops: embedding_bag
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(32000, 2048, mode='max')
        self.to(dtype)

    def forward(self, ids):
        x = self.emb(ids)
        return x


batch_size = 13041


def get_inputs():
    return [torch.randint(0, 32000, (batch_size, 128))]


def get_init_inputs():
    return []
