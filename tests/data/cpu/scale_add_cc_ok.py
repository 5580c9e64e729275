import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void scale_add(const float* x, const float* w, const float* b, float* y, long rows, long cols) {
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c)
            y[r * cols + c] = x[r * cols + c] * w[c] + b[c];
}
""", openmp=True)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        # same names and shapes as the reference: the verifier copies its values in
        self.weight = nn.Parameter(torch.empty(dim))
        self.bias = nn.Parameter(torch.empty(dim))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.scale_add(x, self.weight, self.bias, y, x.shape[0], x.shape[1])
        return y
