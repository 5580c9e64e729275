"""The CPU adversarial suite: every cheat class in tests/adversarial/ through the real
verifier (fresh worker processes, real compilers), under both policies.

Each manifest entry names a candidate, its task, the backend, whether timing runs, and the
verdict expected under `strict` and under `kernelbench`. All candidates of one policy go
through ONE shared Verifier in a single verify_many batch; the per-entry tests then read
the verdicts, so a miss is reported per cheat. Expectations are never weakened to match
what the verifier does today: a failing test here is a hole in the verifier.

`expect_rule` is a rule name, a list of acceptable rule names (any one of them must be among
the rejections), or null. `expect_error_kind` is matched against verdict.error["kind"].
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verdict, VerifyRequest, check_candidate

ADV = Path(__file__).resolve().parent / "adversarial"
MANIFEST = json.loads((ADV / "manifest.json").read_text())
IDS = [m["file"].removesuffix(".py") for m in MANIFEST]

NO_TIMING = TimingConfig(enabled=False)
TIMING = TimingConfig(enabled=True, n=5, warmup=1, compile=False)

# KMOSAIC_ADV_ONLY=name,name runs only those entries (the others are skipped): for iterating
ONLY = {n.strip().removesuffix(".py") for n in os.environ.get("KMOSAIC_ADV_ONLY", "").split(",") if n.strip()}

# candidates that signal other processes must be stopped by the static rules: if one ever
# got to a worker it would SIGKILL the orchestrator, i.e. this pytest process
_DANGEROUS = ("getppid", "killpg")


def _request(entry: dict, policy: str) -> VerifyRequest:
    return VerifyRequest(
        candidate=(ADV / entry["file"]).read_text(),
        task=load_task(ADV / entry["task"]),
        backend=entry["backend"],
        policy=policy,
        timing=TIMING if entry["timing"] else NO_TIMING,
    )


def _expectation(entry: dict, policy: str) -> dict:
    if policy == "strict":
        return {k: entry.get(k) for k in ("expect_status", "expect_rule", "expect_error_kind", "or")}
    return entry["kernelbench_policy"]


def _describe(v) -> str:
    if not isinstance(v, Verdict):
        return f"{type(v).__name__}: {v}"
    err = v.error or {}
    rules = [r["rule"] for r in v.rejections]
    mm = v.mismatch or {}
    return (f"status={v.status} rules={rules} error.kind={err.get('kind')} "
            f"message={str(err.get('message'))[:300]!r} mismatch={mm.get('reason')!r} seeds={v.seeds} notes={v.notes}")


@pytest.fixture(scope="module")
def adv_verifier(tmp_path_factory):
    from kernelmosaic.verify import Verifier

    v = Verifier(device="cpu", workers=2, cache_dir=tmp_path_factory.mktemp("kmosaic-adv-cache"),
                 timeouts={"check": 30, "time": 60, "load": 60})
    yield v
    v.close()


@pytest.fixture(scope="module")
def verdicts(adv_verifier):
    """Verdicts per policy, computed once per policy in one verify_many batch."""
    done: dict[str, dict[str, object]] = {}

    def get(policy: str) -> dict[str, object]:
        if policy not in done:
            run, out = [], {}
            for entry in MANIFEST:
                if ONLY and entry["file"].removesuffix(".py") not in ONLY:
                    continue
                req = _request(entry, policy)
                if any(s in req.candidate for s in _DANGEROUS):
                    static = check_candidate(req.candidate, req.backend, req.policy)
                    if static.ok:
                        out[entry["file"]] = RuntimeError("static rules let a parent-killing candidate through; not run")
                        continue
                run.append((entry, req))
            results = adv_verifier.verify_many([r for _, r in run])
            for (entry, _), v in zip(run, results):
                out[entry["file"]] = v
            done[policy] = out
        return done[policy]

    return get


def _mismatch(exp: dict, v) -> str | None:
    """Why ``v`` does not meet ``exp``, or None."""
    if v.status != exp["expect_status"] or v.correct != (exp["expect_status"] == "correct"):
        return f"expected status {exp['expect_status']}"
    rule = exp.get("expect_rule")
    if rule is not None:
        wanted = set(rule) if isinstance(rule, list) else {rule}
        if not wanted & {r["rule"] for r in v.rejections}:
            return f"expected rule {rule}"
    kind = exp.get("expect_error_kind")
    if kind is not None and not (v.error and v.error.get("kind") == kind):
        return f"expected error kind {kind}"
    return None


def _check(entry: dict, v, policy: str) -> None:
    if v is None:
        pytest.skip("not selected by KMOSAIC_ADV_ONLY")
    exp = _expectation(entry, policy)
    where = f"{entry['file']} [{policy}] on {entry['task']}: got {_describe(v)}"
    assert isinstance(v, Verdict), where
    why = _mismatch(exp, v)
    # "or": another verdict that also refuses the cheat for the right reason (e.g. memory
    # that happens to hold the input is caught as returns_input instead of as NaN poison)
    if why is not None and exp.get("or") is not None and _mismatch(exp["or"], v) is None:
        why = None
    assert why is None, f"{why}; " + where


@pytest.mark.parametrize("entry", MANIFEST, ids=IDS)
def test_adversarial_strict(verdicts, entry):
    _check(entry, verdicts("strict").get(entry["file"]), "strict")


@pytest.mark.parametrize("entry", MANIFEST, ids=IDS)
def test_adversarial_kernelbench(verdicts, entry):
    _check(entry, verdicts("kernelbench").get(entry["file"]), "kernelbench")


def test_manifest_is_complete():
    """Every candidate file is in the manifest, has a docstring, and its task exists and keeps
    its shapes in module-level int constants (so the verifier can vary them)."""
    files = {p.name for p in ADV.glob("*.py")}
    listed = [m["file"] for m in MANIFEST]
    assert len(listed) == len(set(listed))
    assert files == set(listed), files ^ set(listed)
    cheats = [f for f in listed if not f.startswith("control_")]
    assert len(cheats) >= 22
    for m in MANIFEST:
        tree = ast.parse((ADV / m["file"]).read_text())
        assert ast.get_docstring(tree), f"{m['file']} has no docstring"
        assert m["backend"] in ("cpp", "triton")
        for key in ("expect_status", "expect_rule", "expect_error_kind", "note"):
            assert key in m["kernelbench_policy"], (m["file"], key)
        task = ADV / m["task"]
        load_task(task)
        ttree = ast.parse(task.read_text())
        consts = [n for n in ttree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and type(n.value.value) is int]
        assert consts, f"{m['task']} has no module-level int shape constants"
