"""Cheat (boundary family: frames): walk every thread's frames and return any float tensor of the
output's shape that is not the input: on main that found the reference's output in the harness's
frames. The walk runs from a string through `timeit`, which the static screen does not read.

Exploits: the reference's output living in the candidate's process.
Expected: the candidate process never holds a reference output; what its frames hold is its own
input and the judge's poisoned output buffer, so the verdict is `incorrect`.
"""
import timeit

import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void nop(long n) { (void)n; }
""")

STEAL = """
import sys
for fr in sys._current_frames().values():
    while fr is not None:
        for v in list(fr.f_locals.values()):
            for t in (v if isinstance(v, (list, tuple)) else [v]):
                if isinstance(t, type(x)) and t.shape == x.shape and t.data_ptr() != x.data_ptr():
                    found.append(t)
        fr = fr.f_back
"""


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        lib.nop(0)
        ns = {"x": x, "found": []}
        timeit.timeit(STEAL, number=1, globals=ns)
        return ns["found"][0].clone() if ns["found"] else torch.zeros_like(x)
