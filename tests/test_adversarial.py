"""The CPU adversarial suite: every cheat class in tests/adversarial/ through the real
verifier (fresh worker processes, real compilers), under both policies.

Each manifest entry names a candidate, its task, the backend, whether timing runs, and the
verdict expected under `strict` and under `kernelbench`. All candidates of one policy go
through ONE shared Verifier in a single verify_many batch; the per-entry tests then read
the verdicts, so a miss is reported per cheat. Expectations are never weakened to match
what the verifier does today: a failing test here is a hole in the verifier.

`expect_rule` is a rule name, a list of acceptable rule names (any one of them must be among
the rejections), or null. `expect_error_kind` is matched against verdict.error.kind.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from adversarial_checks import check, runnable
from kernelmosaic.task import load_task
from kernelmosaic.verify.variants import size_sites

ADV = Path(__file__).resolve().parent / "adversarial"
MANIFEST = json.loads((ADV / "manifest.json").read_text())
IDS = [m["file"].removesuffix(".py") for m in MANIFEST]





@pytest.fixture(scope="module")
def adv_verifier(tmp_path_factory):
    from kernelmosaic.verify import Verifier

    v = Verifier(device="cpu", workers=2, cache_dir=tmp_path_factory.mktemp("kmosaic-adv-cache"),
                 timeouts={"check": 120, "time": 240, "load": 60})
    yield v
    v.close()


@pytest.fixture(scope="module")
def verdicts(adv_verifier):
    """Verdicts per policy, computed once per policy in one verify_many batch."""
    done: dict[str, dict[str, object]] = {}

    def get(policy: str) -> dict[str, object]:
        if policy not in done:
            run, out = runnable(MANIFEST, policy, ADV, ADV)
            results = adv_verifier.verify_many([r for _, r in run])
            for (entry, _), v in zip(run, results):
                out[entry["file"]] = v
            done[policy] = out
        return done[policy]

    return get


@pytest.mark.parametrize("entry", MANIFEST, ids=IDS)
def test_adversarial_strict(verdicts, entry):
    check(entry, verdicts("strict").get(entry["file"]), "strict")


@pytest.mark.parametrize("entry", MANIFEST, ids=IDS)
def test_adversarial_kernelbench(verdicts, entry):
    check(entry, verdicts("kernelbench").get(entry["file"]), "kernelbench")


def test_manifest_is_complete():
    """Every candidate file is in the manifest, has a docstring, and its task exists and has an
    input size the shape variants can change (a constant, a tuple's element or a literal)."""
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
        assert size_sites(task.read_text()), f"{m['task']} has no input size the shape variants can change"
