"""`kmosaic verify` as a user runs it: a real subprocess, exit codes, JSON, no tracebacks."""

import json
import os
import subprocess
import sys

import pytest

from conftest import DATA, ROOT


def kmosaic(*args, cache=None):
    env = dict(os.environ)
    if cache is not None:
        env["KMOSAIC_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, "-m", "kernelmosaic.cli", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)


TASK = str(DATA / "tasks" / "relu.py")


@pytest.mark.parametrize(
    "cand,code,status",
    [
        ("relu_cc_ok", 0, "correct"),
        ("relu_cc_wrong", 1, "incorrect"),
        ("relu_cc_compile_error", 1, "compile_error"),
        ("relu_cc_segfault", 1, "runtime_error"),
        ("relu_cc_writes_input", 1, "rejected"),
        ("relu_torch_static", 1, "rejected"),
    ],
)
def test_verify_json_exit_codes(cand, code, status, cache_dir):
    r = kmosaic("verify", str(DATA / "cpu" / f"{cand}.py"), "--task", TASK, "--device", "cpu", "--backend", "cpp", "--json", "--no-timing", cache=cache_dir)
    assert r.returncode == code, r.stderr
    v = json.loads(r.stdout)
    assert v["status"] == status and v["correct"] == (status == "correct")
    assert "Traceback" not in r.stderr


def test_verify_timeout_option(cache_dir):
    r = kmosaic("verify", str(DATA / "cpu" / "relu_cc_hang.py"), "--task", TASK, "--device", "cpu", "--json", "--no-timing", "--timeout", "5", cache=cache_dir)
    assert r.returncode == 1
    assert json.loads(r.stdout)["status"] == "timeout"


def test_human_output_with_timing(cache_dir):
    r = kmosaic("verify", str(DATA / "cpu" / "relu_cc_ok.py"), "--task", TASK, "--device", "cpu", "--no-compile-baseline", "--timing-runs", "5", cache=cache_dir)
    assert r.returncode == 0, r.stderr
    assert "CORRECT" in r.stdout and "eager" in r.stdout and "speedup" in r.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        # choices are enums: the parser refuses them and lists the valid ones
        (["--backend", "rocm"], "'rocm' is not one of 'cuda', 'nvrtc', 'triton', 'cpp'"),
        (["--policy", "lenient"], "'lenient' is not one of 'strict', 'kernelbench'"),
        (["--backend", "nvrtc", "--device", "cpu"], "needs --device cuda"),
    ],
)
def test_usage_errors_exit_2(args, message, cache_dir):
    r = kmosaic("verify", str(DATA / "cpu" / "relu_cc_ok.py"), "--task", TASK, *args, cache=cache_dir)
    assert r.returncode == 2 and message in r.stderr
    assert "Traceback" not in r.stderr


def test_missing_candidate_exit_2(cache_dir):
    r = kmosaic("verify", "nope.py", "--task", TASK, "--device", "cpu", cache=cache_dir)
    assert r.returncode == 2 and "no such file" in r.stderr


@pytest.mark.parametrize("task,problem", [("bad_syntax", "syntax error"), ("no_model", "missing `Model`"), ("get_inputs_raises", "get_inputs() raised RuntimeError")])
def test_malformed_tasks_exit_2_without_traceback(task, problem, cache_dir):
    r = kmosaic("verify", str(DATA / "cpu" / "relu_cc_ok.py"), "--task", str(DATA / "tasks" / f"{task}.py"), "--device", "cpu", "--no-timing", cache=cache_dir)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert f"{task}.py" in r.stderr and problem in r.stderr
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout


def test_malformed_task_json(cache_dir):
    r = kmosaic("verify", str(DATA / "cpu" / "relu_cc_ok.py"), "--task", str(DATA / "tasks" / "no_model.py"), "--device", "cpu", "--json", cache=cache_dir)
    assert r.returncode == 2
    assert "missing `Model`" in json.loads(r.stdout)["task_error"]["problem"]


def test_tasks_list(kernelbench_dir):
    r = kmosaic("tasks", "list", "--kernelbench", str(kernelbench_dir), "--levels", "1,2,3", "--json")
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)) == 250
