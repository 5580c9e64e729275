"""Cheat: the lying tensor subclass of tensor_subclass.py, plus the class attribute
`_is_param = True`. torch's Parameter metaclass answers isinstance(t, nn.Parameter) with True
for ANY tensor carrying that flag, so an output-type check of the form
`type(t) is torch.Tensor or isinstance(t, nn.Parameter)` lets it through, and the lying
__torch_function__ then makes the comparison see zero error for an all-zero output.

Exploits: the nn.Parameter exemption in the output-type check (_ParameterMeta.__instancecheck__).
Expected: `rejected` with `tensor_subclass` in both policies (the check should be
`type(t) in (torch.Tensor, nn.Parameter)`). If missed, the verdict is `correct` for a
kernel that writes zeros.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void zero(float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = 0.f;
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
        lib.zero(y, y.numel())
        return y.as_subclass(Liar)
