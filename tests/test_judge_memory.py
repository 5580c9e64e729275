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
    res = _judge(tmp_path, protocol="kernelbench", reference=RELU.source, candidate=candidate, n=3)
    return res, held_at_trials, made


def _judge(tmp_path, *, reference: str, candidate: str, n: int, protocol: str = "kernelmosaic") -> dict:
    """A judge run in this process (policy kernelbench: torch allowed beside the candidate's kernel)."""
    build = tmp_path / "build"
    build.mkdir(exist_ok=True)
    spec = JobSpec(device="cpu", backend="cpp", policy="kernelbench", protocol=protocol, reference=reference,
                   candidate=candidate, seeds=SEEDS, timing_seeds=TIMING_SEEDS, build_dir=str(build), shape_variants=False, precision=False,
                   timing=TimingConfig(enabled=True, n=n, warmup=1, eager=False, compile=False))
    j = J.Judge(spec)
    try:
        return j.run()
    finally:
        j.close()


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


# -- a task whose answers are small beside its inputs (a reduction): the answers are kept -----------------
SUM = '''import random
import torch
import torch.nn as nn


class Model(nn.Module):
    """y = x.sum(dim=1)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.sum(dim=1)


def get_inputs():
    return [torch.rand(64, 4096)SHIFT]


def get_init_inputs():
    return []
'''
# the project's protocol wants the candidate's own kernel to run: a C row sum (in double, so that it
# agrees with torch's fp32 sum within the tolerances)
SUM_CANDIDATE = '''import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void rowsum(const float* x, float* y, long rows, long cols) {
    for (long r = 0; r < rows; ++r) {
        double s = 0.0;
        for (long c = 0; c < cols; ++c) s += x[r * cols + c];
        y[r] = (float)s;
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty(x.shape[0], dtype=x.dtype)
        lib.rowsum(x, y, x.shape[0], x.shape[1])
        return y
'''
# whole sets are 2 x 1 MiB of inputs (and 256 B answers): past this, while every answer and one
# set's inputs fit
ANSWERS_FIT = 1536 << 10


def _run_sum(tmp_path, monkeypatch, keep_bytes: int | None, candidate: str = SUM_CANDIDATE, shift: str = "") -> tuple[dict, dict]:
    """A judge under the project's protocol (every timed call's output checked) on the sum task;
    returns the result and what the timing sets did: reference forwards, inputs made, the mode."""
    if keep_bytes is not None:
        monkeypatch.setattr(J.TimingSets, "KEEP_BYTES", keep_bytes)
    seen: dict = {"forwards": 0}
    answer, init = J.TimingSets._answer, J.TimingSets.__init__

    def spy_answer(self, inputs):
        seen["forwards"] += 1
        return answer(self, inputs)

    def spy_init(self, *a, **k):
        init(self, *a, **k)
        seen["sets"] = self

    monkeypatch.setattr(J.TimingSets, "_answer", spy_answer)
    monkeypatch.setattr(J.TimingSets, "__init__", spy_init)
    res = _judge(tmp_path, reference=SUM.replace("SHIFT", shift), candidate=candidate, n=6)
    sets = seen.pop("sets")
    seen.update(answers_only=sets.answers_only, keep=sets.keep, made=sets.made)
    return res, seen


def test_where_only_the_answers_fit_they_are_kept_and_the_inputs_made_again(tmp_path, monkeypatch):
    """8 timed calls over 2 sets: whole sets made again each turn would be 8 reference forwards;
    with the answers kept it is one per set (after the first, made before the trials), while the
    inputs are still made again for every turn, so the calls alternate between other values."""
    res, seen = _run_sum(tmp_path, monkeypatch, keep_bytes=ANSWERS_FIT)
    assert res["status"] == "correct", res.get("error")
    assert seen["answers_only"] and not seen["keep"], seen
    assert res["timing"]["n"] == 6 and res["timing"]["checked_calls"] == 6
    assert seen["forwards"] == 1 + len(TIMING_SEEDS), seen
    assert seen["made"] >= 6 + 2, seen  # the inputs: one make per timed turn at least


def test_the_control_sets_that_fit_are_kept_whole(tmp_path, monkeypatch):
    res, seen = _run_sum(tmp_path, monkeypatch, keep_bytes=None)
    assert res["status"] == "correct", res.get("error")
    assert seen["keep"] and not seen["answers_only"] and seen["forwards"] == len(TIMING_SEEDS) == seen["made"], seen


def test_a_stale_output_is_still_caught_when_only_the_answers_are_kept(tmp_path, monkeypatch):
    """A candidate honest through the trials that then serves its previous call's output: the
    timed calls still alternate between sets with other values, each checked against its own kept
    answer, so the stale output is a wrong timed call."""
    stale = SUM_CANDIDATE.replace(
        "        return y",
        "        self.calls = getattr(self, 'calls', 0) + 1\n"
        "        last, self.last = getattr(self, 'last', None), y.clone()\n"
        "        return last if self.calls > 6 and last is not None else y")
    assert stale != SUM_CANDIDATE
    res, seen = _run_sum(tmp_path, monkeypatch, keep_bytes=ANSWERS_FIT, candidate=stale)
    assert seen["answers_only"], seen
    assert res["status"] == "incorrect", res.get("error")
    assert "timed call" in res["error"]["message"], res["error"]


def test_inputs_from_another_generator_fall_back_to_whole_sets(tmp_path, monkeypatch):
    """get_inputs() that draws from Python's generator, which the seed does not set: made again, the
    inputs differ from those the kept answer is for. The judge sees it on the sample, says so, and
    makes whole sets from then on: the honest candidate is still correct."""
    res, seen = _run_sum(tmp_path, monkeypatch, keep_bytes=ANSWERS_FIT, shift=" + random.random()")
    assert res["status"] == "correct", res.get("error")
    assert not seen["answers_only"], seen  # switched off at the first inputs made again
    assert any("differed from the first ones" in n for n in res.get("notes", [])), res.get("notes")


def test_an_elementwise_tasks_answers_are_not_kept_in_place_of_whole_sets(tmp_path, monkeypatch):
    """ReLU's answers are as large as its inputs: past the threshold the timing makes whole sets
    per turn, as before the answers-kept mode, even where every answer and one set's inputs would
    fit (kept, they took the room L1/19's baselines needed on an H100, results/2026-12-07i-h100)."""
    ns: dict = {}
    exec(RELU.source, ns)
    in_bytes = J.nbytes(ns["get_inputs"]())
    # whole sets: 2 x (inputs + answer) = 4 inputs' bytes; every answer and one set's inputs: 3
    seen: dict = {}
    init = J.TimingSets.__init__

    def spy_init(self, *a, **k):
        init(self, *a, **k)
        seen.update(answers_only=self.answers_only, keep=self.keep, answers_bytes=self.answers_bytes)

    monkeypatch.setattr(J.TimingSets, "__init__", spy_init)
    res, _, _ = _run(tmp_path, monkeypatch, keep_bytes=int(3.5 * in_bytes))
    assert res["status"] == "correct", res.get("error")
    assert seen["answers_bytes"] == 3 * in_bytes and not seen["keep"] and not seen["answers_only"], seen
