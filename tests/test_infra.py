"""Failures of the verifier itself (infra_error) are not the candidate's, on the CPU.

What each end-to-end test really exercises (real judge processes, real candidate processes):

* the judge's own out-of-memory: the task's reference (trusted code that runs in the judge) asks
  torch for 16 TiB, which the kernel refuses (overcommit heuristic), so torch's CPU allocator
  raises "can't allocate memory" inside the judge's reference forward;
* a lost judge: the reference writes the judge's pid to a file and sleeps; the test sends that
  process SIGKILL from outside, as the OOM killer or an operator would;
* a full disk: the reference writes to /dev/full, which fails with ENOSPC inside the judge's work
  (not a full file system: no loop device or tmpfs here; the errno path is the same);
* the candidate's own failures stay its own: a candidate that asks for 16 TiB in its forward, and
  one that exits its own process.

The GPU's memory budget is tested on the H200 (tests/gpu/test_gpu_infra.py).
"""

from __future__ import annotations

import errno
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from conftest import read
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verdict, Verifier, VerifyRequest
from kernelmosaic.verify import infra
from kernelmosaic.verify.pool import Outcome
from kernelmosaic.vocab import FIXABLE, NOT_A_VERDICT, STATUSES

NO_TIMING = TimingConfig(enabled=False)

TASK = '''import os, time
import torch
import torch.nn as nn

STATE = {state!r}


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
{body}
        return torch.relu(x)


def get_inputs():
    return [torch.randn(64, 1000)]


def get_init_inputs():
    return []
'''

# the judge's allocation that the kernel refuses (16 TiB; vm.overcommit_memory 0 or 2)
OOM = "        torch.empty(1 << 44, dtype=torch.uint8)"


def task(tmp_path: Path, body: str, name: str = "t"):
    state = tmp_path / f"{name}-state"
    state.mkdir(exist_ok=True)
    p = tmp_path / f"{name}.py"
    p.write_text(TASK.format(state=str(state), body=body))
    return load_task(p), state


def req(t, cand: str = "relu_cc_ok") -> VerifyRequest:
    return VerifyRequest(candidate=read(f"cpu/{cand}.py"), task=t, backend="cpp", timing=NO_TIMING, trials=2)


@pytest.fixture(scope="module")
def verifier(cache_dir):
    v = Verifier(device="cpu", workers=1, cache_dir=cache_dir, timeouts={"check": 120, "load": 120})
    yield v
    v.close()


# -- the vocabulary and the classifiers ------------------------------------------------------------------
def test_infra_error_is_a_status_but_not_fixable():
    assert "infra_error" in STATUSES and "infra_error" in NOT_A_VERDICT
    assert "infra_error" not in FIXABLE
    v = Verdict(status="infra_error", backend="cpp", policy="strict", task="t", device="cpu")
    assert not v.correct and Verdict.from_dict(v.to_dict()).status == "infra_error"


def test_classifiers():
    assert infra.is_oom(MemoryError())
    assert infra.is_oom(RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried to allocate 1 bytes"))
    assert infra.is_oom(RuntimeError("CUDA error: out of memory"))
    assert not infra.is_oom(RuntimeError("shape mismatch"))
    assert not infra.is_oom(ValueError("out of memory"))  # only allocators' error types count
    for e in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        assert infra.is_disk_full(OSError(e, os.strerror(e)))
    assert not infra.is_disk_full(OSError(errno.EACCES, "denied"))


def test_check_room_asks_the_kernel(tmp_path, monkeypatch):
    infra.check_room(tmp_path)  # this disk has room
    real = os.statvfs(tmp_path)

    class Full:
        f_bavail, f_frsize, f_files, f_favail = 10, real.f_frsize, real.f_files, real.f_favail

    monkeypatch.setattr(infra.os, "statvfs", lambda p: Full)
    with pytest.raises(OSError) as e:
        infra.check_room(tmp_path)
    assert e.value.errno == errno.ENOSPC


def test_budget_arithmetic():
    gib = 1 << 30
    assert infra.lane_share(4) == 0.25 and infra.lane_share(0) == 1.0
    # a 141 GiB GPU, two lanes, a judge holding 10 GiB: 70.5 - 3 (contexts) - 10
    assert infra.gpu_budget(141 * gib, 0.5, 10 * gib) == int(70.5 * gib) - infra.GPU_MARGIN_BYTES - 10 * gib
    assert infra.gpu_budget(4 * gib, 0.5, 10 * gib) == 0


def test_outcome_infra():
    assert Outcome(None, "crash").infra
    assert not Outcome(None, "timeout").infra
    assert Outcome({"status": "infra_error", "error": {"kind": "disk_full", "message": "m"}}).infra
    assert not Outcome({"status": "runtime_error"}).infra
    assert Outcome(None, "crash", "check", "gone").infra_summary() == {"phase": "check", "kind": "worker_lost", "message": "gone"}


def test_descendants_and_rss():
    me = os.getpid()
    assert me in infra.descendants(me)
    assert infra.host_rss([me]) > 1 << 20


# -- end to end: the judge's own failures ---------------------------------------------------------------------
def test_judge_out_of_memory_is_infra_error_after_retries(verifier, tmp_path):
    t, _ = task(tmp_path, OOM)
    v = verifier.verify(req(t))
    assert v.status == "infra_error", (v.status, v.error)
    assert v.error.kind == "out_of_memory" and "reference forward" in v.error.message, v.error
    assert "can't allocate memory" in v.error.message
    # run on a fresh judge twice more, each failure recorded
    assert len(v.attempts) == infra.INFRA_RETRIES, v.attempts
    assert all(a["kind"] == "out_of_memory" for a in v.attempts)


def test_transient_judge_out_of_memory_is_retried_on_a_fresh_judge(verifier, tmp_path):
    # the first reference forward ever (in the first judge) fails; the retry's judge succeeds
    body = ('        if not os.path.exists(STATE + "/once"):\n'
            '            open(STATE + "/once", "w").close()\n    ' + OOM)
    t, _ = task(tmp_path, body)
    v = verifier.verify(req(t))
    assert v.status == "correct", (v.status, v.error)
    assert len(v.attempts) == 1 and v.attempts[0]["kind"] == "out_of_memory", v.attempts
    assert any("run again on a fresh judge" in n for n in v.notes), v.notes


def test_disk_full_in_the_judge_is_infra_error(verifier, tmp_path):
    body = '        with open("/dev/full", "w") as f:\n            f.write("x")'
    t, _ = task(tmp_path, body)
    v = verifier.verify(req(t))
    assert v.status == "infra_error", (v.status, v.error)
    assert v.error.kind == "disk_full" and "No space left" in v.error.message, v.error
    assert len(v.attempts) == infra.INFRA_RETRIES


def _killer(state: Path, stop: threading.Event, kills: list[int], limit: int) -> None:
    """SIGKILL each judge that writes its pid, up to ``limit`` of them."""
    seen: set[int] = set()
    while not stop.is_set() and len(kills) < limit:
        for f in state.glob("pid-*"):
            pid = int(f.name[4:])
            if pid in seen:
                continue
            seen.add(pid)
            # only ever a judge process (the reference runs in the judge)
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            assert b"kernelmosaic.verify.worker" in cmd, cmd
            os.kill(pid, signal.SIGKILL)
            kills.append(pid)
        time.sleep(0.1)


SLEEPS = ('        if len(os.listdir(STATE)) < {n}:\n'
          '            open(STATE + "/pid-%d" % os.getpid(), "w").close()\n'
          '            time.sleep(300)')


def test_judge_killed_mid_job_is_retried_on_a_fresh_judge(verifier, tmp_path):
    t, state = task(tmp_path, SLEEPS.format(n=1))
    stop, kills = threading.Event(), []
    th = threading.Thread(target=_killer, args=(state, stop, kills, 1), daemon=True)
    th.start()
    try:
        v = verifier.verify(req(t))
    finally:
        stop.set()
        th.join()
    assert len(kills) == 1
    assert v.status == "correct", (v.status, v.error)
    assert len(v.attempts) == 1 and v.attempts[0]["kind"] == "worker_lost", v.attempts
    assert "SIGKILL" in v.attempts[0]["message"] and v.attempts[0]["phase"] == "check"


def test_judge_lost_every_time_is_infra_error_never_runtime_error(verifier, tmp_path):
    n = infra.INFRA_RETRIES + 1
    t, state = task(tmp_path, SLEEPS.format(n=n))
    stop, kills = threading.Event(), []
    th = threading.Thread(target=_killer, args=(state, stop, kills, n), daemon=True)
    th.start()
    try:
        v = verifier.verify(req(t))
    finally:
        stop.set()
        th.join()
    assert len(kills) == n
    assert v.status == "infra_error", (v.status, v.error)
    assert v.error.kind == "worker_lost" and "the verifier failed, not the candidate" in v.error.message
    assert len(v.attempts) == infra.INFRA_RETRIES


# -- the candidate's own failures stay its own ------------------------------------------------------------------
def test_candidate_out_of_memory_stays_the_candidates(verifier, tmp_path):
    src = read("cpu/relu_cc_ok.py").replace("        x = x.contiguous()\n",
                                            "        x = x.contiguous()\n        torch.empty(1 << 44, dtype=torch.uint8)\n")
    assert "1 << 44" in src
    t = load_task(Path(__file__).parent / "data" / "tasks" / "relu.py")
    v = verifier.verify(VerifyRequest(candidate=src, task=t, backend="cpp", timing=NO_TIMING, trials=2))
    assert v.status == "runtime_error", (v.status, v.error)
    assert "can't allocate memory" in v.error.message and not v.attempts


def test_candidate_that_exits_its_process_stays_the_candidates(verifier):
    t = load_task(Path(__file__).parent / "data" / "tasks" / "relu.py")
    v = verifier.verify(req(t, "relu_cc_exit"))
    assert v.status == "runtime_error" and v.error.kind == "crash", (v.status, v.error)
    assert not v.attempts
