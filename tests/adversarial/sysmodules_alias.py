"""Cheat: sys.modules reached without naming `sys`: torch imports sys at module level, so
`torch.sys.modules` is the same dict (os.sys works too). The reference's Model is found and
called; a token C kernel runs.

Exploits: an introspection rule that matches only the dotted name `sys.modules`.
Expected: static `introspection` in both policies. If missed: strict still rejects with the
dynamic `torch_compute` (wrong rule); kernelbench returns `correct`.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void touch(const float* x, float* acc, long n) {
    acc[0] = n > 0 ? x[0] : 0.f;
}
""")


def _find_reference():
    for name, mod in list(torch.sys.modules.items()):
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
