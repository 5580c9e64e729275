"""Profiler feedback (agent/profiler.py): the ncu raw-CSV parser, the rendered lines, and the
paths where ncu cannot give metrics. This machine has no GPU and no Nsight Compute."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA
from kernelmosaic.agent.profiler import Profile, parse_raw_csv, profile_candidate
from kernelmosaic.task import load_task

# HAND-WRITTEN, not captured from ncu: the layout NVIDIA documents for `ncu --csv --page raw
# --print-units base` (a header row of ID / process / kernel columns then one column per
# metric, a units row, one row per profiled launch), preceded by ncu's ==PROF== lines and
# the profiled program's own output, as on stdout. Values are made up.
RAW_CSV = '''==PROF== Connected to process 4242 (/usr/bin/python3.11)
building extension... done
==PROF== Profiling "relu_kernel" - 0: 0%....50%....100% - 9 passes
==PROF== Profiling "reduce_rows" - 1: 0%....50%....100% - 9 passes
==PROF== Disconnected from process 4242
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__throughput.avg.pct_of_peak_sustained_elapsed","gpu__time_duration.sum","launch__registers_per_thread","sm__throughput.avg.pct_of_peak_sustained_elapsed","sm__warps_active.avg.pct_of_peak_sustained_active","smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio","smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio","smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio","smsp__average_warps_issue_stalled_selected_per_issue_active.ratio","smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"
"","","","","","","","","","","","%","ns","register/thread","%","%","ratio","ratio","ratio","ratio","ratio"
"0","4242","python3.11","127.0.0.1","relu_kernel(const float *, float *, long)","1","7","(256, 1, 1)","(65536, 1, 1)","0","9.0","91.37","21,504","16","23.5","87.2","0.00","14.31","0.02","1.00","1.87"
"1","4242","python3.11","127.0.0.1","reduce_rows(const float *, float *, long, long)","1","7","(1024, 1, 1)","(128, 1, 1)","0","9.0","12.04","88,320","40","8.1","24.9","9.72","3.05","0.00","1.00","0.66"
'''


def test_parse_handwritten_raw_csv():
    ks = parse_raw_csv(RAW_CSV)
    assert [k.name.split("(")[0] for k in ks] == ["relu_kernel", "reduce_rows"]
    relu, red = ks
    assert relu.duration_ns == 21504 and relu.dram_pct == 91.37 and relu.sm_pct == 23.5
    assert relu.occupancy_pct == 87.2 and relu.registers == 16 and relu.grid == "(65536, 1, 1)"
    assert relu.top_stalls(2) == [("long_scoreboard", 14.31), ("wait", 1.87)]  # "selected" is not a stall
    assert red.top_stalls(1) == [("barrier", 9.72)]
    text = Profile(True, "", ks).render()
    lines = text.splitlines()
    assert lines[0].startswith("Profiler (Nsight Compute, one forward, 2 kernel launch(es)")
    assert lines[1].startswith("- `reduce_rows") and "88.3 us" in lines[1]  # the longest kernel first
    assert "achieved occupancy 25% of peak" in lines[1] and "DRAM throughput 12% of peak" in lines[1]
    assert "barrier 9.7 (waiting at __syncthreads)" in lines[2]
    assert "long_scoreboard 14.3 (waiting on global/local memory loads)" in text
    assert len(lines) <= 5  # a few lines, not a report


def test_parse_output_without_csv():
    assert parse_raw_csv("==PROF== Connected\n==ERROR== something failed\n") == []
    assert Profile(True, "", []).render().startswith("Profiler (Nsight Compute): forward launched no CUDA kernels")


def test_no_ncu_on_path_degrades_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no ncu anywhere
    monkeypatch.delenv("KMOSAIC_NCU", raising=False)
    p = profile_candidate(load_task(DATA / "tasks" / "relu.py"), (DATA / "cpu" / "relu_cc_ok.py").read_text())
    assert not p.available and p.kernels == []
    assert p.render() == "Profiler: no metrics (Nsight Compute (ncu) is not on PATH here)."
    assert p.to_dict()["available"] is False


def test_counter_permission_error_is_reported(tmp_path, monkeypatch):
    """A stand-in `ncu` (a shell script, not Nsight Compute) that answers the way ncu does on a
    machine that does not permit the performance counters, to test how that is told apart."""
    fake = tmp_path / "ncu"
    fake.write_text("#!/bin/sh\necho '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                    "NVIDIA GPU Performance Counters on the target device 0.'\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("KMOSAIC_NCU", raising=False)
    p = profile_candidate(load_task(DATA / "tasks" / "relu.py"), (DATA / "cpu" / "relu_cc_ok.py").read_text())
    assert not p.available and "ERR_NVGPUCTRPERM" in p.note and "not permit" in p.render()


def _fake_ncu(tmp_path, script: str) -> None:
    fake = tmp_path / "ncu"
    fake.write_text("#!/bin/sh\n" + script)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    (tmp_path / "raw.csv").write_text(RAW_CSV)
    os.chmod(tmp_path, 0o755)
    os.chmod(tmp_path / "raw.csv", 0o644)


def test_cuda_refused_inside_the_sandbox_is_retried_without_landlock(tmp_path, monkeypatch):
    """On the H200 the profiled process could not start CUDA under all the sandbox's layers
    (error 304). CuPy words it "cudaErrorOperatingSystem", torch "cudaGetDeviceCount()": either
    is retried with a layer left out. A stand-in `ncu` (a shell script) reads the layers that
    hold from the sandbox's own report, refuses while landlock holds, the way CuPy did, and answers
    otherwise with metrics."""
    _fake_ncu(tmp_path, 'case "$KMOSAIC_SANDBOX" in *\'"landlock": "on\'*)\n'
              "  echo 'cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorOperatingSystem: OS call failed'; exit 1;;\n"
              f"esac\ncat {tmp_path / 'raw.csv'}\n")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("KMOSAIC_NCU", raising=False)
    p = profile_candidate(load_task(DATA / "tasks" / "relu.py"), (DATA / "cpu" / "relu_cc_ok.py").read_text())
    assert p.available and [k.name.split("(")[0] for k in p.kernels] == ["relu_kernel", "reduce_rows"], p.note
    if sandbox_layers_hold("landlock", tmp_path / "probe"):  # else the first run already had no landlock, and nothing was left out
        assert "landlock layer was left out" in p.note and "landlock layer was left out" in p.render()


def test_each_try_gets_a_fresh_folder(tmp_path, monkeypatch):
    """The pilot's cuda-backend profiles failed on the retry with a permission error on torch's
    extension lock: the uid layer gives each try a user id of its own, and the retry ran in the
    folder the first try had filled. The stand-in `ncu` makes a folder and a file in it on every
    try, as torch's build does, and is refused on the first."""
    # where the uid layer holds (root), a stale folder is the permission error itself; elsewhere the
    # stand-in says what it found, so the test holds on any machine
    _fake_ncu(tmp_path, "[ -e ext ] && { echo 'PermissionError: the last try left ext/ here'; exit 1; }\n"
              "mkdir -p ext/build && : > ext/build/lock || { echo 'PermissionError: lock'; exit 1; }\n"
              "case \"$KMOSAIC_SANDBOX\" in *'\"landlock\": \"on'*) echo 'Error 304: cudaGetDeviceCount'; exit 1;; esac\n"
              f"cat {tmp_path / 'raw.csv'}\n")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("KMOSAIC_NCU", raising=False)
    p = profile_candidate(load_task(DATA / "tasks" / "relu.py"), (DATA / "cpu" / "relu_cc_ok.py").read_text())
    assert p.available, p.note


def test_a_driver_refused_under_every_rung_says_so(tmp_path, monkeypatch):
    _fake_ncu(tmp_path, "echo 'RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 304'; exit 1\n")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("KMOSAIC_NCU", raising=False)
    p = profile_candidate(load_task(DATA / "tasks" / "relu.py"), (DATA / "cpu" / "relu_cc_ok.py").read_text())
    assert not p.available and "did not start under ncu inside the sandbox" in p.render(), p.note


def sandbox_layers_hold(layer: str, workdir: Path) -> bool:
    """Whether this machine's sandbox holds ``layer`` (a sandbox owns its workdir: a fresh one)."""
    from kernelmosaic.verify import sandbox

    workdir.mkdir()
    out = subprocess.run(sandbox.command(sandbox.SandboxConfig(workdir=str(workdir), execute=["/"]),
                                         [sys.executable, "-c", "import os; print(os.environ['KMOSAIC_SANDBOX'])"]),
                         capture_output=True, text=True, timeout=60)
    return f'"{layer}": "on' in out.stdout


def _correct(ms: float) -> dict:
    return {"status": "correct", "correct": True, "compiled": True, "backend": "cuda", "policy": "strict",
            "task": "relu", "timing": {"candidate_ms": ms, "eager_ms": 1.0, "speedup_eager": 1.0 / ms}}


def test_loop_profiles_only_correct_kernels_headed_for_an_optimize_prompt(tmp_path, monkeypatch):
    """Episode.record (the loop's, the MCP server's and the step CLI's turn builder) on a CUDA
    verifier: with no ncu here, the feedback says so, on exactly the turns that get a profile."""
    from types import SimpleNamespace

    from kernelmosaic.agent import Episode, EpisodeConfig

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("KMOSAIC_NCU", raising=False)
    task, code = load_task(DATA / "tasks" / "relu.py"), (DATA / "cpu" / "relu_cc_ok.py").read_text()

    def rec(cfg, verdict, device="cuda", turns=()):
        ep = Episode(task, None, SimpleNamespace(device=device), cfg)
        return ep.record(list(turns), "implement" if not turns else "optimize", [], [], "reply", code, verdict)

    t = rec(EpisodeConfig(max_optimize=1), _correct(0.5))
    assert t.feedback.endswith("Profiler: no metrics (Nsight Compute (ncu) is not on PATH here).")
    assert t.meta["profile"]["available"] is False
    assert "profile" not in rec(EpisodeConfig(max_optimize=1), _correct(0.4), turns=[t]).meta  # no optimize turn left
    assert "profile" not in rec(EpisodeConfig(max_optimize=0), _correct(0.5)).meta
    assert "profile" not in rec(EpisodeConfig(profile=False), _correct(0.5)).meta
    assert "profile" not in rec(EpisodeConfig(), _correct(0.5), device="cpu").meta
    assert "profile" not in rec(EpisodeConfig(), {"status": "incorrect", "error": {"kind": "incorrect", "message": "x"}}).meta
    # the machine's veto: the episode asked for a profile, this machine's operator said no
    monkeypatch.setenv("KMOSAIC_PROFILE", "0")
    off = rec(EpisodeConfig(max_optimize=1), _correct(0.5))
    assert off.feedback.endswith("Profiler: no metrics (off on this machine (KMOSAIC_PROFILE=0)).")


_LOAD_INLINE = '''
import os, torch
from torch.utils.cpp_extension import load_inline
m = load_inline("kmosaic_profile_twice", "torch::Tensor twice(torch::Tensor x) { return x * 2; }",
                functions=["twice"], build_directory=os.getcwd())
print("BUILT", float(m.twice(torch.ones(3)).sum()))
'''


def test_a_load_inline_build_runs_inside_the_profiles_sandbox(tmp_path):
    """A cuda-backend candidate builds its extension when the profile's driver imports it. On the
    H200 that build failed: "ninja: fatal: posix_spawn: Operation not permitted" (ninja puts each
    compiler in a process group of its own, and the sandbox's seccomp layer refuses setpgid).
    The driver runs the build as the verifier's builder does, without ninja. Control: the same
    build without that runner fails the same way here, where seccomp holds."""
    from kernelmosaic.agent import profiler
    from kernelmosaic.verify import sandbox

    def run(prelude: str, name: str) -> subprocess.CompletedProcess:
        d = tmp_path / name
        d.mkdir()
        os.chmod(d, 0o755)
        env = {**os.environ, "HOME": str(d), "TMPDIR": str(d), "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONPATH": os.pathsep.join(filter(None, [profiler._PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}
        cfg = sandbox.SandboxConfig(workdir=str(d), execute=["/"])
        return subprocess.run(sandbox.command(cfg, [sys.executable, "-c", prelude + _LOAD_INLINE]), cwd=d,
                              capture_output=True, text=True, env=env, timeout=600)

    if not sandbox_layers_hold("seccomp", tmp_path / "probe"):
        pytest.skip("no seccomp layer here: ninja's setpgid is not refused")
    control = run("", "ninja")
    assert control.returncode != 0 and "posix_spawn: Operation not permitted" in control.stdout + control.stderr, \
        (control.stdout + control.stderr)[-600:]
    ok = run(profiler._BUILD_RUNNER, "runner")
    assert ok.returncode == 0 and "BUILT 6.0" in ok.stdout, (ok.stdout + ok.stderr)[-1500:]

