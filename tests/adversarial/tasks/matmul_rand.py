import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A @ B, fp32, on torch.rand inputs with a long inner dimension (as KernelBench L1/1)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


M = 32
K = 2048
N = 32


def get_inputs():
    return [torch.rand(M, K), torch.rand(K, N)]


def get_init_inputs():
    return []
