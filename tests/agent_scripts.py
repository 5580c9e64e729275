"""Scripted model replies for the agent tests: broken, wrong, correct (slow), faster."""

CC_HEAD = '''import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
{c}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu(x, y, x.numel())
        return y
'''


def reply(c_source: str, prose: str = "Here is my kernel.") -> str:
    return f"{prose}\n\n```python\n{CC_HEAD.replace('{c}', c_source)}```\n"


BROKEN = reply("""void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f
}""", "A first version.")

WRONG = reply("""void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.01f * x[i];
}""", "Fixed the missing semicolon.")

SLOW = reply("""void relu(const float* x, float* y, long n) {
    /* correct but wasteful: the same pass 8000 times, about 60 ms a call, so that it is slower than
       FAST by more than the noise of timing on a loaded 2-core CI machine: 40 passes once lost to
       it, and 400 (3 ms) lost to it under the Ray test with two pytest workers */
    for (int rep = 0; rep < 8000; ++rep)
        for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}""", "Now it clamps negatives to zero.")

FAST = reply("""void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}""", "One pass is enough.")

NO_CODE = "I would write a loop over the elements and clamp negative values to zero."

TRITON_OK = '''Here it is.

```python
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
        return y
```
'''


def by_conversation(messages: list[dict]) -> str:
    """Pick the reply from what the last prompt says, so a restarted episode gets the same script."""
    last = messages[-1]["content"] if messages else ""
    if "COMPILE ERROR" in last:
        return WRONG
    if "INCORRECT" in last:
        return SLOW
    if "Best correct kernel so far" in last:
        return FAST
    return BROKEN
