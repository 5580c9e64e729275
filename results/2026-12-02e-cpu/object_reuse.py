"""A cpp (load_inline) build cold, then the same source with other link flags: main.cpp's object is
reused (builder.ObjectCache). Run from the repository root: python results/2026-12-02e-cpu/object_reuse.py"""
import json
import tempfile
import time
from pathlib import Path

from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

src = Path("tests/data/cpu/relu_inline_ok.py").read_text().replace('name="kmosaic_test_relu"', 'name="km_reuse_bench"')
task = load_task(Path("tests/data/tasks/relu.py"))
off = TimingConfig(enabled=False)
with Verifier(device="cpu", workers=1, cache_dir=tempfile.mkdtemp()) as v:
    for name, s in (("cold", src),
                    ("link flags changed", src.replace('extra_cflags=["-O2"])', 'extra_cflags=["-O2"], extra_ldflags=["-lm"])'))):
        t = time.perf_counter()
        r = v.verify(VerifyRequest(candidate=s, task=task, backend="cpp", timing=off))
        print(json.dumps({"build": name, "status": r.status, "wall_s": round(time.perf_counter() - t, 2), "phases_s": r.phases_s,
                          "reused": [n for n in r.notes if "reused" in n]}))
