import torch
import torch.nn as nn

dtype = torch.bfloat16


class Model(nn.Module):
    """One bf16 product at the task's shape; four in a row at a taller one (over 300 rows), where
    the reference rounds after each product and a kernel that multiplies in fp32 and rounds once
    is closer to the exact answer than the reference. The task's own trials never meet the
    reference's rounding; its grown shape variant (320 rows) does (issue 20's pilot: L2/14's
    GEMV, correct on its trials, missed on a grown shape by the reference's rounding)."""

    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter((1 + 0.1 * torch.randn(4, cols)).to(dtype))

    def forward(self, x):
        if x.shape[0] <= 300:
            return x * self.w[0]
        return x * self.w[0] * self.w[1] * self.w[2] * self.w[3]


rows = 256
cols = 257


def get_inputs():
    return [(8 * torch.randn(rows, cols)).to(dtype)]


def get_init_inputs():
    return [cols]
