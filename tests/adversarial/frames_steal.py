"""Cheat (boundary family: frames): walk every thread's frames (the attribute name is computed, so
the static screen cannot see it) and return any float tensor of the output's shape that is not the
input: on main that found the reference's output in the harness's frames.

Exploits: the reference's output living in the candidate's process.
Expected: the candidate process never holds a reference output; what the frames hold is its own
input and the judge's poisoned output buffer, so the verdict is `incorrect`.
"""
import sys

import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void nop(long n) { (void)n; }
""")

_frames = getattr(sys, "_current" + "_" + "frames")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        lib.nop(0)
        seen = []
        for fr in _frames().values():
            while fr is not None:
                for v in list(getattr(fr, "f_" + "locals").values()):
                    for t in (v if isinstance(v, (list, tuple)) else [v]):
                        if isinstance(t, torch.Tensor) and t.shape == x.shape and t.data_ptr() != x.data_ptr():
                            seen.append(t)
                fr = getattr(fr, "f_" + "back")
        return seen[0].clone() if seen else torch.zeros_like(x)
