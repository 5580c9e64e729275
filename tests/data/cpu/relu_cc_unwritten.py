import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
/* forgets to write the output */
void relu(const float* x, float* y, long n) { (void)x; (void)y; (void)n; }
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu(x, y, x.numel())
        return y
