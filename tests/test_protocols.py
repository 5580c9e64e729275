"""--protocol kernelbench (verify/protocols.py): KernelBench's evaluator's semantics, and
candidates on which it and the project's own protocol must disagree, in both directions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import torch

from conftest import DATA
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, VerifyRequest
from kernelmosaic.verify import protocols
from kernelmosaic.verify.compare import compare, within

ROOT = Path(__file__).resolve().parents[1]
ADV = Path(__file__).parent / "adversarial"
RELU = ADV / "tasks" / "relu.py"
SCALE = DATA / "tasks" / "scale_add.py"
OFF = TimingConfig(enabled=False)

# ModelNew that makes its parameters as the reference does (the same calls, in the same order):
# under KernelBench's protocol, seed 42 gives both the same weights
SCALE_OWN_WEIGHTS = (DATA / "cpu" / "scale_add_cc_ok.py").read_text().replace(
    "nn.Parameter(torch.empty(dim))", "nn.Parameter(torch.randn(dim))")


def test_the_trial_seeds_are_kernelbenchs():
    """run_and_check_correctness: torch.manual_seed(42), then torch.randint(0, 2**32 - 1) per trial."""
    torch.manual_seed(42)
    assert tuple(torch.randint(0, 2**32 - 1, (1,)).item() for _ in range(5)) == protocols.KB_TRIAL_SEEDS


def test_apply_fixes_what_kernelbench_fixes():
    req = VerifyRequest(candidate="", task=load_task(RELU), trials=2, seed=7, tolerances={"atol": 1.0},
                        shape_variants=True, protocol="kernelbench")
    kb = protocols.apply(req)
    assert (kb.policy, kb.trials, kb.seed, kb.tolerances, kb.shape_variants, kb.precision) == ("kernelbench", 5, None, {}, False, False)
    assert (kb.timing.n, kb.timing.warmup, kb.timing.statistic) == (100, 4, "mean")
    assert protocols.apply(VerifyRequest(candidate="", task=load_task(RELU))).timing.statistic == "median"


def test_kernelbench_checks_get_time_for_their_cpu_made_inputs():
    """KernelBench's inputs come from the CPU generator (one core, ~7 ns an element): its check
    phase gets 600 s unless the user set a check timeout; the project's protocol keeps the default."""
    from kernelmosaic.verify.pool import DEFAULT_TIMEOUTS

    assert protocols.timeouts(DEFAULT_TIMEOUTS, {}, "kernelbench")["check"] == 600.0
    assert protocols.timeouts(DEFAULT_TIMEOUTS, {}, "kernelmosaic")["check"] == DEFAULT_TIMEOUTS["check"]
    given = {**DEFAULT_TIMEOUTS, "check": 25.0}
    assert protocols.timeouts(given, {"check": 25.0}, "kernelbench")["check"] == 25.0
    assert protocols.timeouts({**DEFAULT_TIMEOUTS, "check": 900.0}, {}, "kernelbench")["check"] == 900.0


def test_no_relative_norm_bound_under_kernelbench():
    """Outputs near zero: every element within atol, the relative norm far off. The project's
    bound refuses it; torch.allclose alone (rel_norm None) accepts it."""
    ref = torch.full((1000,), 1e-6)
    out = ref + 5e-5
    ours = {"atol": 1e-4, "rtol": 1e-4, "rel_norm": 1e-3}
    theirs = {"atol": 1e-4, "rtol": 1e-4, "rel_norm": None}
    assert not within(ref, out, ours) and "relative norm" in compare(ref, out, ours, 0)["reason"]
    assert within(ref, out, theirs) and compare(ref, out, theirs, 0) is None
    assert compare(ref, ref + 2e-4, theirs, 0) is not None  # atol still holds


def test_the_protocols_disagree_on_a_shape_cheat(cpu_verifier):
    """A ReLU that drops the remainder of 128-element blocks: right on the task's one shape, wrong
    on the prime shape variant. KernelBench checks only the task's shape: correct there."""
    src = (ADV / "drop_remainder_128.py").read_text()
    ours, kb = cpu_verifier.verify_many([
        VerifyRequest(candidate=src, task=load_task(RELU), backend="cpp", timing=OFF),
        VerifyRequest(candidate=src, task=load_task(RELU), backend="cpp", timing=OFF, protocol="kernelbench")])
    assert ours.status == "incorrect" and ours.error.kind == "shape_variant", ours.error
    assert kb.status == "correct", kb.error
    assert kb.protocol == "kernelbench" and kb.seeds == list(protocols.KB_TRIAL_SEEDS) and kb.shape_variants == []
    assert kb.tolerances["rel_norm"] is None and kb.tolerances["atol"] == 1e-4
    assert "protocol" not in ours.to_dict() and kb.to_dict()["protocol"] == "kernelbench"


def test_the_protocols_disagree_on_weights(cpu_verifier):
    """The project copies Model's parameters into ModelNew by name; KernelBench builds each after
    seed 42 and copies nothing. A ModelNew whose weights are torch.empty is right only when they
    are copied; one that makes them as Model does is right under both."""
    empty = (DATA / "cpu" / "scale_add_cc_ok.py").read_text()
    reqs = [VerifyRequest(candidate=c, task=load_task(SCALE), backend="cpp", timing=OFF, protocol=p)
            for c in (empty, SCALE_OWN_WEIGHTS) for p in ("kernelmosaic", "kernelbench")]
    empty_ours, empty_kb, own_ours, own_kb = cpu_verifier.verify_many(reqs)
    assert empty_ours.status == "correct" and any("copied 2 parameter" in n for n in empty_ours.notes)
    assert empty_kb.status == "incorrect" and empty_kb.error.kind == "mismatch", empty_kb.error
    assert own_ours.status == "correct" and own_kb.status == "correct", (own_ours.error, own_kb.error)
    assert not any("copied" in n for n in own_kb.notes)


def test_kernelbench_times_a_mean_of_100_calls(cpu_verifier):
    src = (DATA / "cpu" / "relu_cc_ok.py").read_text()
    v = cpu_verifier.verify(VerifyRequest(candidate=src, task=load_task(DATA / "tasks" / "relu.py"), backend="cpp", protocol="kernelbench",
                                          timing=TimingConfig(enabled=True, n=5, compile=False)))
    assert v.status == "correct", v.error
    assert v.timing.n == 100 and v.timing.checked_calls == 0  # KernelBench checks no timed call
    assert v.timing.statistic == "mean" and v.to_dict()["timing"]["statistic"] == "mean"
    assert v.timing.eager_ms is not None and v.timing.speedup_eager is not None


def test_cli_protocol_kernelbench(tmp_path):
    """The shape cheat passes `kmosaic verify --protocol kernelbench` (exit 0) and the verdict says
    which protocol made it; options the protocol fixes are refused (exit 2)."""
    cmd = [sys.executable, "-m", "kernelmosaic.cli", "verify", str(ADV / "drop_remainder_128.py"), "--task", str(RELU),
           "--device", "cpu", "--backend", "cpp", "--no-timing", "--protocol", "kernelbench"]
    env = {"KMOSAIC_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    r = subprocess.run(cmd, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "CORRECT" in r.stdout and "protocol kernelbench" in r.stdout, r.stdout
    r = subprocess.run([*cmd, "--atol", "1e-3", "--trials", "2"], cwd=ROOT, env={**os.environ, **env}, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and "--atol, --trials: fixed by --protocol kernelbench" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_default_verdicts_read_as_before():
    """The new fields stay out of a default verdict's record, so the store's digests of turns
    written before them still match when a resumed run adds the same turn again."""
    from kernelmosaic.verify.verdict import Verdict

    d = Verdict(status="correct", backend="cpp", policy="strict", task="t", device="cpu", timing={"candidate_ms": 1.0}).to_dict()
    assert "protocol" not in d and "statistic" not in d["timing"]
    kb = Verdict(status="correct", backend="cpp", policy="kernelbench", task="t", device="cpu", protocol="kernelbench",
                 timing={"candidate_ms": 1.0, "statistic": "mean"})
    assert Verdict.from_dict(kb.to_dict()) == kb
