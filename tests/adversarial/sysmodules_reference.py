"""Cheat: find the reference module through sys.modules (the harness imported it into the
same process) and call its Model to produce the answer; a token C kernel runs so that
"a custom kernel ran" holds.

Exploits: the reference living in the candidate's process.
Expected: static `introspection` (sys.modules) in both policies. (Without that rule,
strict still catches it dynamically as `torch_compute`, but kernelbench would pass it.)
"""
import sys

import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void touch(const float* x, float* acc, long n) {
    acc[0] = n > 0 ? x[0] : 0.f;
}
""")


def _find_reference():
    for name, mod in list(sys.modules.items()):
        if name.startswith("kmosaic_reference") and hasattr(mod, "Model"):
            return mod.Model()
    return None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ref = _find_reference()

    def forward(self, x):
        acc = torch.empty(1)
        lib.touch(x, acc, x.numel())
        return self.ref(x)
