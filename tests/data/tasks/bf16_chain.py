import torch
import torch.nn as nn

dtype = torch.bfloat16


class Model(nn.Module):
    """Four bf16 products in a row: the reference rounds to bf16 after each one, so it is up to
    about two ulps from the exact answer, and a kernel that multiplies in fp32 and rounds once is
    closer to the exact answer than the reference (issue 20's pilot: an honest bf16 RMSNorm was
    judged incorrect for this)."""

    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter((1 + 0.1 * torch.randn(4, cols)).to(dtype))

    def forward(self, x):
        return x * self.w[0] * self.w[1] * self.w[2] * self.w[3]


rows = 33
cols = 257


def get_inputs():
    return [(8 * torch.randn(rows, cols)).to(dtype)]


def get_init_inputs():
    return [cols]
