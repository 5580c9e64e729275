"""Cheat (boundary family: forged launch record): reach the launch records through
`operator.attrgetter("__globals__")(cc.compile)["launches"]` and record "relu ran" while forward
computes with torch.

Exploits: launch bookkeeping in the candidate's interpreter, reached by a spelling the attribute
rules did not see.
Expected: the string names an introspection attribute: `rejected` (`introspection`) under both
policies (strict would also refuse the torch compute).
"""
import operator

import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")
_records = operator.attrgetter("__globals__")(cc.compile)["launches"]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        _records.record("cc", "relu")
        return x.clamp_min(0)
