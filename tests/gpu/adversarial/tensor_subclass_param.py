"""Cheat (GPU port of tests/adversarial/tensor_subclass_param.py): a lying torch.Tensor
subclass as output, with `_is_param = True` so isinstance(t, nn.Parameter) is true. The
NVRTC kernel writes zeros; the subclass's __torch_function__ answers the comparison's ops
with lies (`a - b` is all zeros, isnan/isinf all False), so allclose-style checks and norms
see "no error".

Exploits: comparisons that run torch ops on the candidate's output object, and an output
type check that uses isinstance.
Expected: `rejected` with `tensor_subclass` (dynamic: outputs must be exactly
torch.Tensor or nn.Parameter) or `hooks` (static: __torch_function__, torch._C) in both
policies. If missed: `correct` for an all-zero output.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void zero(float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = 0.f;
}
""")

_ZEROS = {"sub", "__sub__", "__rsub__", "isnan", "isinf", "sign"}
_KEEP = {"float", "to", "where", "contiguous", "detach", "clone", "flatten", "__getitem__"}


class Liar(torch.Tensor):
    _is_param = True  # isinstance(t, nn.Parameter) is True for any tensor with this flag

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        with torch._C.DisableTorchFunctionSubclass():
            out = func(*args, **kwargs)
            if name in _ZEROS and isinstance(out, torch.Tensor):
                return torch.zeros_like(out)
        if name in _KEEP and isinstance(out, torch.Tensor):
            return out.as_subclass(cls)
        return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = y.numel()
        mod.zero(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(y, n))
        return y.as_subclass(Liar)
