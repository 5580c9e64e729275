"""What a judge holds while it checks a candidate, where a task's cases are too large to keep.

On an 80 GB H100 every verdict on KernelBench's three largest L1 tasks (6-7 GiB a tensor) was an
out-of-memory ``infra_error``: through trial 0 the judge held the first timing set, trial 0's
case and trial 1's (made early for the degenerate-task check), beside the check buffers and the
candidate (results/2026-12-07c-h100). A large set is now released after calibration and made
again for the timing, and trial 1's case is made again at its turn when the two trial cases do not
fit the timing sets' budget together. Here the "large" threshold
is lowered so that a small CPU task takes that path, in a judge run in this process."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kernelmosaic.task import load_task
from kernelmosaic.verify import judge as J
from kernelmosaic.verify.spec import JobSpec, TimingConfig

ROOT = Path(__file__).resolve().parents[1]
RELU = load_task(ROOT / "tests" / "adversarial" / "tasks" / "relu.py")
# KernelBench's protocol allows torch in the candidate (no kernel need run): the test is about the
# judge, not a build
CANDIDATE = RELU.source.replace("class Model(", "class ModelNew(")
SEEDS, TIMING_SEEDS = [101, 102, 103], [201, 202]


def _run(tmp_path, monkeypatch, keep_bytes: int | None, candidate: str = CANDIDATE) -> tuple[dict, list, Counter]:
    if keep_bytes is not None:
        monkeypatch.setattr(J.TimingSets, "KEEP_BYTES", keep_bytes)
    held_at_trials: list = []
    made: Counter = Counter()
    trials, case = J.Judge.trials, J.Judge.reference_case

    def spy_trials(self, mod, ref):
        held_at_trials.append(sorted(self.sets.held))
        return trials(self, mod, ref)

    def spy_case(self, mod, ref, seed):
        made[seed] += 1
        return case(self, mod, ref, seed)

    monkeypatch.setattr(J.Judge, "trials", spy_trials)
    monkeypatch.setattr(J.Judge, "reference_case", spy_case)
    build = tmp_path / "build"
    build.mkdir(exist_ok=True)
    spec = JobSpec(device="cpu", backend="cpp", policy="kernelbench", protocol="kernelbench", reference=RELU.source,
                   candidate=candidate, seeds=SEEDS, timing_seeds=TIMING_SEEDS, build_dir=str(build), shape_variants=False, precision=False,
                   timing=TimingConfig(enabled=True, n=3, warmup=1, eager=False, compile=False))
    j = J.Judge(spec)
    try:
        res = j.run()
    finally:
        j.close()
    return res, held_at_trials, made


def test_a_large_timing_set_is_not_held_through_the_trials_and_the_timing_still_runs(tmp_path, monkeypatch):
    res, held, made = _run(tmp_path, monkeypatch, keep_bytes=64 << 10)  # a case here is 500 KiB
    assert res["status"] == "correct", res.get("error")
    assert res["timing"]["candidate_ms"] > 0 and res["timing"]["n"] == 3
    assert held == [[]]  # nothing of the timing sets through the trials: made again for the timing
    assert made[SEEDS[1]] == 2  # trial 1's case: once for the degenerate-task check, again at its turn
    assert made[SEEDS[0]] == 1 and made[SEEDS[2]] == 1


def test_the_control_small_sets_are_kept_and_trial_one_is_made_once(tmp_path, monkeypatch):
    res, held, made = _run(tmp_path, monkeypatch, keep_bytes=None)
    assert res["status"] == "correct", res.get("error")
    assert held == [[0, 1]]  # both timing sets, made once and kept
    assert made[SEEDS[1]] == 1


@pytest.mark.parametrize("keep_bytes", [64 << 10, None])
def test_a_wrong_candidate_is_still_caught_on_a_remade_trial(tmp_path, monkeypatch, keep_bytes):
    """The case made again for trial 1 is the same case: a candidate right only on trial 0's
    inputs (it answers trial 0's output every time) fails at trial 1 either way."""
    first_only = CANDIDATE.replace(
        "        return torch.relu(x)",
        "        if not hasattr(self, 'first'):\n            self.first = torch.relu(x).clone()\n        return self.first")
    assert first_only != CANDIDATE
    res, _, _ = _run(tmp_path, monkeypatch, keep_bytes=keep_bytes, candidate=first_only)
    assert res["status"] == "incorrect", res.get("error")
    assert "trial 1" in res["error"]["message"]
