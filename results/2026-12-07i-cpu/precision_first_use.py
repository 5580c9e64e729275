# the precision check's counters' first use in a fresh interpreter, and what it imports;
# --preimport: with torch._dynamo imported first, as a GPU judge does before it is ready
import sys, time
import torch

if "--preimport" in sys.argv:  # what a GPU judge now does as it starts (worker.py)
    t = time.perf_counter()
    import torch._dynamo  # noqa: F401
    print(f"import torch._dynamo first: {time.perf_counter() - t:.3f} s")
from kernelmosaic.verify import precision as P
from torch.utils.flop_counter import FlopCounterMode
m = torch.nn.Linear(64, 64).double()
x = torch.randn(8, 64, dtype=torch.float64)
before = "torch._dynamo" in sys.modules
for k in range(2):
    t = time.perf_counter()
    with torch.no_grad(), FlopCounterMode(display=False), P._extent_mode():
        m(x)
    print(f"use {k + 1}: {time.perf_counter() - t:.3f} s; torch._dynamo imported before: {before}, after: {'torch._dynamo' in sys.modules}")
