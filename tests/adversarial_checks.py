"""Shared by the CPU and GPU adversarial suites: manifest requests and verdict expectations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verdict, VerifyRequest

NO_TIMING = TimingConfig(enabled=False)
TIMING = TimingConfig(enabled=True, n=5, warmup=1, compile=False)

# KMOSAIC_ADV_ONLY=name,name runs only those entries (the others are skipped): for iterating
ONLY = {n.strip().removesuffix(".py") for n in os.environ.get("KMOSAIC_ADV_ONLY", "").split(",") if n.strip()}

# candidates that signal other processes must be stopped by the static rules: if one ever
# got to a worker it would SIGKILL the orchestrator, i.e. the pytest process
DANGEROUS = ("getppid", "killpg")


def request(entry: dict, policy: str, candidates: Path, tasks: Path) -> VerifyRequest:
    return VerifyRequest(
        candidate=(candidates / entry["file"]).read_text(),
        task=load_task(tasks / entry["task"]),
        backend=entry["backend"],
        policy=policy,
        timing=TIMING if entry["timing"] else NO_TIMING,
    )


def expectation(entry: dict, policy: str) -> dict:
    if policy == "strict":
        return {k: entry.get(k) for k in ("expect_status", "expect_rule", "expect_error_kind", "or")}
    return entry["kernelbench_policy"]


def describe(v) -> str:
    if not isinstance(v, Verdict):
        return f"{type(v).__name__}: {v}"
    err = v.error
    rules = v.rules
    mm = v.mismatch
    return (f"status={v.status} rules={rules} error.kind={err and err.kind} "
            f"message={str(err and err.message)[:300]!r} mismatch={mm and mm.reason!r} seeds={v.seeds} notes={v.notes}")


def mismatch(exp: dict, v) -> str | None:
    """Why ``v`` does not meet ``exp``, or None."""
    if v.status != exp["expect_status"] or v.correct != (exp["expect_status"] == "correct"):
        return f"expected status {exp['expect_status']}"
    rule = exp.get("expect_rule")
    if rule is not None:
        wanted = set(rule) if isinstance(rule, list) else {rule}
        if not wanted & set(v.rules):
            return f"expected rule {rule}"
    kind = exp.get("expect_error_kind")
    if kind is not None and not (v.error and v.error.kind == kind):
        return f"expected error kind {kind}"
    return None


def meets(exp: dict, v) -> bool:
    # "or": another verdict that also refuses the cheat for the right reason (e.g. memory
    # that happens to hold the input is caught as returns_input instead of as NaN poison)
    return isinstance(v, Verdict) and (mismatch(exp, v) is None or (exp.get("or") is not None and mismatch(exp["or"], v) is None))


def check(entry: dict, v, policy: str) -> None:
    if v is None:
        pytest.skip("not selected by KMOSAIC_ADV_ONLY")
    exp = expectation(entry, policy)
    where = f"{entry['file']} [{policy}] on {entry['task']}: got {describe(v)}"
    assert isinstance(v, Verdict), where
    assert meets(exp, v), f"{mismatch(exp, v)}; " + where


def runnable(manifest: list[dict], policy: str, candidates: Path, tasks: Path) -> tuple[list, dict]:
    """(entries with their requests to run, verdict placeholders for entries not run).

    A candidate that could signal the orchestrator runs only if the static rules stop it."""
    from kernelmosaic.verify import check_candidate

    run, out = [], {}
    for entry in manifest:
        if ONLY and entry["file"].removesuffix(".py") not in ONLY:
            continue
        req = request(entry, policy, candidates, tasks)
        if any(s in req.candidate for s in DANGEROUS) and check_candidate(req.candidate, req.backend, req.policy).ok:
            out[entry["file"]] = RuntimeError("static rules let a parent-killing candidate through; not run")
            continue
        run.append((entry, req))
    return run, out


def warm_library_kernels(v) -> None:
    """strict's first GPU verdict on a machine lists cuBLAS's and cuDNN's kernels (libs.py): done
    here first, in a process of its own, so that it is not inside a 30 s check phase."""
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(x for x in (root, os.environ.get("PYTHONPATH")) if x))
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.verify.libs", "--warm", str(v.build_dir)],
                       capture_output=True, text=True, timeout=900, env=env)
    print(r.stdout, r.stderr[-2000:])
    assert r.returncode == 0, r.stderr[-2000:]
