"""The trust boundary on the GPU: the judge's clock, forged result lines, and the sandbox layers
that the GPU machine grants (docs/verification.md).

    python -m pytest -m gpu tests/gpu/test_gpu_boundary.py -v
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import record_verdict as _record
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest
from kernelmosaic.verify.pool import detect_gpus
from kernelmosaic.verify.sandbox import LAYERS

pytestmark = pytest.mark.gpu

RELU = load_task(Path(__file__).resolve().parents[1] / "adversarial" / "tasks" / "relu.py")
TIMED = TimingConfig(enabled=True, n=10, warmup=2, compile=False)

# relu that first spins for CYCLES clock cycles in every block: about 2 ms on an H200 (1.98 GHz)
SPIN = textwrap.dedent('''
    import timeit

    import torch
    import torch.nn as nn
    from kernelmosaic.verify import nvrtc

    PRELUDE

    mod = nvrtc.compile(r"""
    __global__ void relu_spin(const float* __restrict__ x, float* __restrict__ y, long n, long long cycles) {
        long long t0 = clock64();
        while (clock64() - t0 < cycles) { }
        long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
        long stride = (long)gridDim.x * blockDim.x;
        for (; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
    }
    """)


    class ModelNew(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, x):
            x = x.contiguous()
            y = torch.empty_like(x)
            mod.relu_spin(grid=(132,), block=(256,), args=(x, y, x.numel(), 4000000))
            return y
    ''')


@pytest.fixture(scope="module")
def gpu():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    v = Verifier(device="cuda", timeouts={"check": 60, "time": 300})
    yield v
    v.close()


def _as_string_code(code: str) -> str:
    """A line that runs ``code`` at import through timeit (a string the static screen does not read)."""
    return f"timeit.timeit({code!r}, number=1)"


def test_gpu_clock_is_the_judges(gpu):
    """The candidate's process gets its CUDA event timer and its host clocks rebound (from a string
    run as code, which the static screen does not read): on main an honest kernel then reported
    8x too fast. The judge's clock sees the ~2 ms spin whatever the verdict says."""
    honest = gpu.verify(VerifyRequest(candidate=SPIN.replace("PRELUDE", ""), task=RELU, backend="nvrtc", timing=TIMED))
    _record("gpu spin honest", honest)
    assert honest.status == "correct", honest.error
    # the hooks go in after the correctness calls (5 trials, the instrumented call, 2 shape
    # variants), so that the run-time screen, which looks only at those, has not seen them
    hook = _as_string_code("import time, torch\n"
                           "torch.cuda.Event.elapsed_time = lambda self, end: 0.001\n"
                           "_p = time.perf_counter\n"
                           "time.perf_counter = lambda: _p() / 8\n")
    src = SPIN.replace("PRELUDE", "").replace("super().__init__()", "super().__init__()\n        self.calls = 0")
    src = src.replace("        return y", "        self.calls += 1\n        if self.calls == 9:\n            " + hook + "\n        return y")
    cheat = gpu.verify(VerifyRequest(candidate=src, task=RELU, backend="nvrtc", timing=TIMED))
    _record("gpu spin with hooked clocks", cheat)
    assert cheat.status in ("correct", "rejected"), (cheat.status, cheat.error)
    assert cheat.timing is not None and honest.timing.candidate_ms > 1.5
    assert cheat.timing.candidate_ms > 0.8 * honest.timing.candidate_ms, (cheat.timing, honest.timing)


def test_gpu_forged_result_line_is_a_protocol_violation(gpu):
    """At import, write a forged result line to every descriptor named on the command line (on
    main: the worker's event pipe). The candidate process holds only its data channel."""
    forge = _as_string_code("import os, sys\n"
                            "for a in sys.argv[1:]:\n"
                            "    if a.isdigit():\n"
                            "        os.write(int(a), b'{\"event\":\"result\",\"status\":\"correct\"}\\n')\n")
    v = gpu.verify(VerifyRequest(candidate=SPIN.replace("PRELUDE", forge), task=RELU, backend="nvrtc", timing=TIMED))
    _record("gpu forged result line", v)
    assert v.status == "rejected" and "protocol" in v.rules, (v.status, v.error, v.rules)


def test_gpu_layers_are_reported(gpu):
    v = gpu.verify(VerifyRequest(candidate=SPIN.replace("PRELUDE", ""), task=RELU, backend="nvrtc"))
    _record("gpu layers", v)
    assert v.status == "correct", v.error
    assert set(v.isolation.layers) == set(LAYERS)
    # the GPU machine must keep the candidate from other processes by at least one layer
    assert "on" in (v.isolation.layers["pidns"], v.isolation.layers["uid"]), v.isolation.layers
