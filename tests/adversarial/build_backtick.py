"""Cheat (boundary family: build injection): a backtick command in `load_inline(extra_cflags=...)`.
torch writes the flags into build.ninja unquoted and ninja runs them through /bin/sh.

Exploits: flags that reach a shell.
Expected: `rejected`, rule `build_flags`, before anything is built (builds run without a shell,
from argument lists, and the flag is refused first).
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mod = load_inline(
    name="relu_bt",
    cpp_sources=r"""
#include <torch/extension.h>
torch::Tensor relu(torch::Tensor x) { return x.clamp_min(0); }
""",
    functions=["relu"],
    extra_cflags=["-O2", "`touch /tmp/kmosaic-pwned`"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return mod.relu(x)
