"""Out-of-memory on the GPU: whose is it? (run on the H200 through the device tool)

    python -m pytest -m gpu tests/gpu/test_gpu_infra.py -v

* the judge's own out-of-memory, with the candidate well inside its budget: infra_error, retried
  on fresh judges (the reference asks for 1 PiB);
* the judge takes the GPU (its reference keeps all but 1 GiB after the candidate has loaded) and
  the candidate's modest allocation then fails: infra_error, though the candidate reported it;
* the candidate raises its own cap (the budget is advisory in its process), takes all but 1 GiB,
  and the judge's reference then runs out: the candidate's runtime_error, by the judge's
  measurement of what the candidate held;
* an honest candidate that asks for more than its budget: its own runtime_error.

Each verdict is appended to $KMOSAIC_RESULTS when set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DATA, record_verdict as record
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest
from kernelmosaic.verify.infra import INFRA_RETRIES
from kernelmosaic.verify.pool import detect_gpus

pytestmark = pytest.mark.gpu

UNTIMED = TimingConfig(enabled=False)

TASK = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
{body}
        return torch.relu(x)


def get_inputs():
    return [torch.randn(4096, 1024)]


def get_init_inputs():
    return []
'''

OK = (DATA / "gpu" / "relu_nvrtc_ok.py").read_text()


@pytest.fixture(scope="module")
def gpu():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    v = Verifier(device="cuda", workers=1, timeouts={"check": 180})
    yield v
    v.close()


def _task(tmp_path: Path, body: str, name: str):
    p = tmp_path / f"{name}.py"
    p.write_text(TASK.format(body=body))
    return load_task(p)


def _cand(init: str = "", fwd: str = "") -> str:
    src = OK.replace("class ModelNew(nn.Module):\n", "class ModelNew(nn.Module):\n    def __init__(self):\n"
                     "        super().__init__()\n" + (init or "        pass\n") + "\n", 1)
    src = src.replace("        y = torch.empty_like(x)\n", "        y = torch.empty_like(x)\n" + fwd, 1)
    assert "__init__" in src and (not fwd or fwd in src)
    return src


def _verify(gpu, tmp_path, name, body, cand):
    v = gpu.verify(VerifyRequest(candidate=cand, task=_task(tmp_path, body, name), backend="nvrtc", timing=UNTIMED, trials=2))
    record(name, v)
    return v


def test_judge_oom_with_the_candidate_in_budget_is_infra_error(gpu, tmp_path):
    v = _verify(gpu, tmp_path, "judge_oom", "        torch.empty(1 << 50, dtype=torch.uint8, device=x.device)", OK)
    assert v.status == "infra_error", (v.status, v.error)
    assert v.error.kind == "out_of_memory" and "reference forward" in v.error.message, v.error
    assert "budget" in v.error.message  # what the candidate held, against its budget
    assert len(v.attempts) == INFRA_RETRIES


def test_judge_takes_the_gpu_and_the_candidates_oom_is_infra_error(gpu, tmp_path):
    body = ('        if not hasattr(self, "hog"):\n'
            '            free, _ = torch.cuda.mem_get_info()\n'
            '            self.hog = torch.empty(max(0, free - (1 << 30)), dtype=torch.uint8, device=x.device)')
    cand = _cand(fwd="        scratch = torch.empty(4 << 30, dtype=torch.uint8, device=x.device)\n")
    v = _verify(gpu, tmp_path, "judge_hogs", body, cand)
    assert v.status == "infra_error", (v.status, v.error)
    assert v.error.kind == "out_of_memory" and "within its budget" in v.error.message, v.error


def test_candidate_over_its_budget_is_charged_with_the_judges_oom(gpu, tmp_path):
    init = ("        torch.cuda.set_per_process_memory_fraction(1.0)\n"
            "        free, _ = torch.cuda.mem_get_info()\n"
            "        self.hog = torch.empty(free - (1 << 30), dtype=torch.uint8, device='cuda')\n")
    body = "        scratch = torch.empty(4 << 30, dtype=torch.uint8, device=x.device)"
    v = _verify(gpu, tmp_path, "candidate_hogs", body, _cand(init=init))
    assert v.status == "runtime_error", (v.status, v.error)
    assert v.error.kind == "out_of_memory" and "over its budget" in v.error.message, v.error
    assert not v.attempts


def test_honest_candidate_over_its_budget_is_its_own_runtime_error(gpu, tmp_path):
    init = "        self.total = torch.cuda.mem_get_info()[1]\n"
    fwd = "        scratch = torch.empty(int(self.total * 0.99), dtype=torch.uint8, device=x.device)\n"
    v = _verify(gpu, tmp_path, "candidate_over_cap", "", _cand(init=init, fwd=fwd))
    assert v.status == "runtime_error", (v.status, v.error)
    assert "OutOfMemoryError" in v.error.message or "out of memory" in v.error.message, v.error
    assert not v.attempts


def test_pool_still_verifies_after_the_oom_cases(gpu):
    v = gpu.verify(VerifyRequest(candidate=OK, task=load_task(DATA / "tasks" / "relu.py"), backend="nvrtc", timing=UNTIMED))
    record("after_oom_cases", v)
    assert v.status == "correct", (v.status, v.error)


# -- several lanes on one GPU (pool.GpuGate): an out-of-memory beside other lanes' jobs is nobody's
# verdict; the job runs again with the GPU to itself, where the usual budget applies
@pytest.fixture(scope="module")
def lanes():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    v = Verifier(device="cuda", lanes_per_gpu=4, timeouts={"check": 180})
    yield v
    v.close()


def test_lanes_rerun_alone_what_does_not_fit_a_share(lanes, tmp_path):
    # the judge's reference takes 45 % of the GPU for a moment (kept by its allocator): more than a
    # lane's quarter; and an honest candidate that needs 40 % of the GPU: over a lane's budget,
    # within one GPU's. Before the gate, the first left the other lanes' judges out of memory
    # (the pilot's infra_errors) and the second was the candidate's runtime_error on a shared GPU only.
    judge_big = ('        if not hasattr(self, "seen"):\n'
                 '            self.seen = 1\n'
                 '            t = torch.empty(int(torch.cuda.mem_get_info()[1] * 0.45), dtype=torch.uint8, device=x.device)\n'
                 '            del t')
    cand_big = _cand(init="        self.total = torch.cuda.mem_get_info()[1]\n",
                     fwd="        scratch = torch.empty(int(self.total * 0.40), dtype=torch.uint8, device=x.device)\n")
    reqs = ([VerifyRequest(candidate=OK, task=_task(tmp_path, judge_big, "judge_big"), backend="nvrtc", timing=UNTIMED, trials=2)] * 4
            + [VerifyRequest(candidate=cand_big, task=_task(tmp_path, "", "cand_big"), backend="nvrtc", timing=UNTIMED, trials=2)] * 2
            + [VerifyRequest(candidate=OK, task=load_task(DATA / "tasks" / "relu.py"), backend="nvrtc", timing=UNTIMED)] * 4)
    verdicts = lanes.verify_many(reqs)
    for i, v in enumerate(verdicts):
        record(f"lanes_{i}", v)
    assert [v.status for v in verdicts] == ["correct"] * len(reqs), [(v.status, v.error) for v in verdicts]
    alone = [any("GPU to itself" in n for n in v.notes) for v in verdicts]
    assert all(alone[4:6]), [v.notes for v in verdicts[4:6]]  # the candidate's OOM on a share, run again alone
    assert any(alone[:4]), [v.notes for v in verdicts[:4]]  # the big reference: learned, or after an OOM
    assert not any(alone[6:]), [v.notes for v in verdicts[6:]]  # small tasks share the GPU
