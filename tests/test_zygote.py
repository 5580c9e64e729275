"""The process starter (kernelmosaic/verify/zygote.py): sandboxed processes forked from a judge's
child that has imported torch, with the same layers and nothing of the starter within reach.

The cheat here targets the starter itself: a candidate that found the starter's channel among
its descriptors could ask it for a process without a sandbox. Its control is the same probe in a
process executed the way it was before the starter.
"""

from __future__ import annotations

import signal
import time

import pytest

from kernelmosaic.verify import Verifier, VerifyRequest, zygote
from kernelmosaic.verify.pool import describe_exit
from kernelmosaic.verify.procs import CandidateProcess
from test_boundary import RELU, _cheat


@pytest.fixture(autouse=True)
def _default_starter(monkeypatch):
    monkeypatch.delenv("KMOSAIC_ZYGOTE", raising=False)  # the default: forked


@pytest.fixture()
def build(tmp_path):
    b = tmp_path / "build"
    b.mkdir()
    return str(b)


def _start(build: str) -> CandidateProcess:
    p = CandidateProcess("cpu", build)
    assert p.wait_ready(120)["event"] == "ready"
    return p


def test_a_forked_process_has_the_same_layers_as_an_executed_one_and_starts_without_importing(build, monkeypatch):
    forked = _start(build)
    monkeypatch.setenv("KMOSAIC_ZYGOTE", "0")
    executed = _start(build)
    try:
        assert forked.started_by == "starter" and executed.started_by == "exec"
        assert forked.ready["sandbox"] == executed.ready["sandbox"], (forked.ready["sandbox"], executed.ready["sandbox"])
        # torch and Dynamo were imported by the starter, not by the forked process
        parts = forked.ready["startup_parts"]
        assert parts["import_s"] < 0.5 and parts["warm_s"] < 0.5, parts
        assert executed.ready["startup_parts"]["import_s"] > parts["import_s"]
    finally:
        forked.close()
        executed.close()


def test_the_judge_finds_a_forked_candidate_behind_its_launcher(build):
    """With a PID namespace the forked launcher's child is the candidate, whose /proc/<pid>/maps the
    judge reads for vendor libraries (libs.process_pid): its command line is the starter's, so it
    is found by its namespace, not by name."""
    from kernelmosaic.verify import libs

    p = _start(build)
    try:
        pid = libs.process_pid(p)
        assert pid is not None
        if p.ready["sandbox"]["pidns"].startswith("on"):
            assert pid != p.proc.pid and libs._pid_depth(pid) == libs._pid_depth(p.proc.pid) + 1
        else:
            assert pid == p.proc.pid
    finally:
        p.close()


def test_a_forked_process_is_killed_reaped_and_described_like_an_executed_one(build):
    p = _start(build)
    starter = zygote.starter("cpu")
    try:
        assert p.alive()
        t = time.monotonic()
        p.proc.kill()
        rc = p.proc.wait(timeout=30)
        assert time.monotonic() - t < 5  # the exit status comes as the starter reaps, not at a timeout
        assert rc == -signal.SIGKILL or rc == 128 + signal.SIGKILL
        assert "SIGKILL" in describe_exit(rc, "the candidate process")
        assert not p.alive()
        # the starter keeps serving
        q = _start(build)
        assert q.proc.starter is starter
        q.close()
    finally:
        p.close()


def test_a_dead_starter_takes_its_children_with_it_and_the_next_start_gets_a_new_one(build):
    p = _start(build)
    old = zygote.starter("cpu")
    old.proc.kill()
    old.proc.wait(timeout=30)
    try:
        p.proc.wait(timeout=30)  # PR_SET_PDEATHSIG: the child dies with its starter
        assert not p.alive()
        q = _start(build)
        assert q.started_by == "starter" and q.proc.starter is not old
        q.close()
    finally:
        p.close()


def test_without_a_starter_every_process_executes_a_fresh_interpreter(build, monkeypatch):
    monkeypatch.setenv("KMOSAIC_ZYGOTE", "0")
    assert zygote.starter("cpu") is None
    p = _start(build)
    try:
        assert p.started_by == "exec" and p.ready["startup_parts"]["import_s"] > 0.3
    finally:
        p.close()


def test_a_starter_that_cannot_start_leaves_processes_executed_and_is_not_tried_again(build, monkeypatch):
    monkeypatch.setattr(zygote, "_STARTERS", {})
    monkeypatch.setattr(zygote.Starter, "MODULE", "kernelmosaic.verify.no_such_starter")
    p = _start(build)
    try:
        assert p.started_by == "exec"
        assert "the process starter failed" in p.log_tail()
        assert zygote.starter("cpu") is None  # broken before it was ever ready: not started again
    finally:
        p.close()


def test_the_default_forks(monkeypatch):
    monkeypatch.delenv("KMOSAIC_ZYGOTE", raising=False)
    assert zygote.enabled()
    monkeypatch.setenv("KMOSAIC_ZYGOTE", "0")
    assert not zygote.enabled() and zygote.starter("cuda") is None
    monkeypatch.setenv("KMOSAIC_ZYGOTE", "off")
    assert not zygote.enabled()


def test_a_mistyped_setting_is_refused_where_it_is_given(monkeypatch):
    """Not taken as unset: the pool refuses it before any worker starts, the CLI in one line."""
    import subprocess
    import sys

    monkeypatch.setenv("KMOSAIC_ZYGOTE", "fork")
    with pytest.raises(ValueError, match="KMOSAIC_ZYGOTE must be 1 .* not 'fork'"):
        Verifier(device="cpu", workers=1, prewarm=False)
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "error: KMOSAIC_ZYGOTE must be 1" in r.stderr


def test_the_starter_refuses_to_fork_once_the_driver_has_the_gpu_open(monkeypatch):
    """cuInit opens the GPU's device files; a CUDA build of torch maps libcuda.so as it is imported
    without doing so (results/2026-12-07-h100), so the files are what is checked. Read from this
    process's own descriptors: here, a stand-in path among them."""
    from types import SimpleNamespace

    torch = SimpleNamespace(cuda=SimpleNamespace(is_initialized=lambda: False))  # this process's own may have CUDA up
    with open("/dev/null") as f:
        assert "/dev/null" in zygote._open_devices(), f
    threads = zygote._threads()
    monkeypatch.setattr(zygote, "_open_devices", lambda: ["/dev/null", "pipe:[1]"])
    assert zygote._fork_unsafe(torch, threads) is None
    monkeypatch.setattr(zygote, "_open_devices", lambda: ["/dev/null", "/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia0"])
    assert zygote._fork_unsafe(torch, threads) == "CUDA's driver has the GPU open (/dev/nvidia0, /dev/nvidiactl)"


def test_the_starter_refuses_to_fork_once_threads_run():
    """``_fork_unsafe`` counts threads against those the imports left (OpenBLAS's pool, which
    grows with the cores): none more, it forks; a pool torch's OpenMP started by running, not."""
    import subprocess
    import sys

    code = (
        "import torch\n"
        "from kernelmosaic.verify import zygote\n"
        "n = zygote._threads()\n"
        "print(zygote._fork_unsafe(torch, n))\n"
        "torch.set_num_threads(2)\n"
        "x = torch.rand(512, 512); (x @ x).sum()\n"
        "print(zygote._fork_unsafe(torch, n))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    before, after = r.stdout.split("\n")[:2]
    assert before == "None"
    assert after.endswith("thread(s) started since the imports"), after


# the probe adds, to each output element, 1000 for every socket among its descriptors beyond its one
# channel (the starter's channel to its judge would be one), and 100000 where it can read the
# credential the test puts in the judge's environment, by getenv or in /proc/self/environ (a forked
# process's shows its starter's first environment)
_PROBE = r'''
#include <sys/stat.h>
static long extra;
void attack(long n) {
    int sockets = 0;
    for (int fd = 0; fd < 4096; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode)) sockets++;
    }
    extra = 1000L * (sockets - 1);
    int seen = getenv("PROBE_API_KEY") != NULL;
    char buf[1 << 16];
    int f = open("/proc/self/environ", O_RDONLY);
    if (f >= 0) {
        long got = read(f, buf, sizeof buf - 1);
        close(f);
        for (long i = 0; i + 13 <= got; i++)
            if (memcmp(buf + i, "PROBE_API_KEY", 13) == 0) seen = 1;
    }
    extra += 100000L * seen;
    (void)n;
}
void add(float* y, long n) { for (long i = 0; i < n; ++i) y[i] += (float)extra; }
'''


@pytest.mark.parametrize("starter", ["1", "0"], ids=["forked", "executed"])
def test_a_candidate_holds_no_descriptor_but_its_own_channel_and_no_credential(tmp_path, monkeypatch, starter):
    """The cheat's probe: more than one socket among a candidate's descriptors would be something
    of its judge's or starter's within its reach, and an API key in the judge's environment one of
    the user's. Correct only if it finds exactly its channel and no key, forked (the starter's
    channel closed before the sandbox, the starter started without the key) or executed (the
    control)."""
    monkeypatch.setenv("KMOSAIC_ZYGOTE", starter)
    monkeypatch.setenv("PROBE_API_KEY", "sk-probe-not-a-real-key")
    with Verifier(device="cpu", workers=1, cache_dir=tmp_path / "cache") as v:
        got = v.verify(VerifyRequest(candidate=_cheat(_PROBE, "lib.add(y, y.numel())"), task=RELU, backend="cpp"))
    assert got.status == "correct", (got.status, got.error)
    # the verdict says which way its candidate started
    assert got.isolation.processes.endswith("forked by the judge's process starter, which holds no job's data"
                                            if starter == "1" else "started as a fresh interpreter"), got.isolation
