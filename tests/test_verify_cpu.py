"""The verifier end to end on the CPU: real worker processes, real compilers (gcc, g++
through load_inline, Triton's interpreter)."""

import json
from pathlib import Path
import time

import pytest

from conftest import DATA, read
from kernelmosaic.task import TaskError, load_task
from kernelmosaic.verify import TimingConfig, Verdict, VerifyRequest

NO_TIMING = TimingConfig(enabled=False)


def relu_task():
    return load_task(DATA / "tasks" / "relu.py")


def req(cand: str, task=None, backend="cpp", policy="strict", timing=NO_TIMING, **kw) -> VerifyRequest:
    return VerifyRequest(candidate=read(f"cpu/{cand}.py"), task=task or relu_task(), backend=backend, policy=policy, timing=timing, **kw)


# (candidate, backend, policy, expected status, expected rule or error kind)
CASES = [
    ("relu_cc_ok", "cpp", "strict", "correct", None),
    ("relu_cc_wrong", "cpp", "strict", "incorrect", "mismatch"),
    ("relu_cc_compile_error", "cpp", "strict", "compile_error", "compile"),
    ("relu_cc_segfault", "cpp", "strict", "runtime_error", "crash"),
    ("relu_cc_hang", "cpp", "strict", "timeout", "timeout"),
    ("relu_cc_writes_input", "cpp", "strict", "rejected", "writes_inputs"),
    ("relu_cc_unwritten", "cpp", "strict", "incorrect", "mismatch"),
    ("relu_cc_exit", "cpp", "strict", "runtime_error", "crash"),
    ("relu_torch_dynamic", "cpp", "strict", "rejected", "torch_compute"),
    ("relu_torch_static", "cpp", "strict", "rejected", "torch_compute"),
    ("relu_kernel_unused", "cpp", "kernelbench", "rejected", "no_kernel_launched"),
    ("relu_triton_ok", "triton", "strict", "correct", None),
    ("relu_triton_wrong", "triton", "strict", "incorrect", "mismatch"),
    ("no_modelnew", "cpp", "strict", "invalid_candidate", "invalid_candidate"),
    ("syntax_error", "cpp", "strict", "invalid_candidate", "invalid_candidate"),
]


def _check(v: Verdict, status: str, what: str | None) -> None:
    assert v.status == status, (v.status, v.error, v.rejections)
    assert v.correct == (status == "correct")
    if status == "rejected":
        assert what in set(v.rules), v.rejections
    elif what is not None:
        assert v.error and v.error.kind == what, v.error


@pytest.mark.parametrize("cand,backend,policy,status,what", CASES, ids=[c[0] for c in CASES])
def test_single_case(cpu_verifier, cand, backend, policy, status, what):
    v = cpu_verifier.verify(req(cand, backend=backend, policy=policy))
    _check(v, status, what)
    # every verdict is one JSON object with the protocol's fields
    d = json.loads(v.to_json())
    for key in ("status", "correct", "compiled", "backend", "policy", "task", "device", "seeds", "tolerances",
                "error", "mismatch", "rejections", "timing", "phases_s", "env"):
        assert key in d


def test_pool_survives_everything_in_one_batch(cpu_verifier):
    """All the failure modes at once through the same pool, then an honest candidate."""
    reqs = [req(c, backend=b, policy=p) for c, b, p, _, _ in CASES] + [req("relu_cc_ok")]
    t0 = time.monotonic()
    verdicts = cpu_verifier.verify_many(reqs)
    for v, (c, _, _, status, what) in zip(verdicts, CASES):
        _check(v, status, what)
    assert verdicts[-1].status == "correct"
    assert time.monotonic() - t0 < 300


def test_a_batch_larger_than_the_lanes_says_who_waited(cache_dir):
    """One lane, three jobs at once (builds run in parallel, judging does not): the jobs that
    waited for the lane say so in phases_s.lane_wait, apart from the lane's time on them (judge)."""
    from kernelmosaic.verify import Verifier

    with Verifier(device="cpu", workers=1, build_workers=3, cache_dir=cache_dir, prewarm=False) as v:
        verdicts = v.verify_many([req("relu_cc_ok", seed=s) for s in (1, 2, 3)])
        # a batch handed over as each verdict comes: every index once
        each = dict(v.verify_each([req("relu_cc_ok", seed=s) for s in (4, 5)]))
    assert sorted(each) == [0, 1] and [each[i].status for i in (0, 1)] == ["correct", "correct"]
    assert [x.status for x in verdicts] == ["correct"] * 3
    waits = sorted(x.phases_s.get("lane_wait", 0.0) for x in verdicts)
    assert waits[-1] > 0 and waits[-1] >= min(x.phases_s["judge"] for x in verdicts) * 0.9
    assert all(x.phases_s["judge"] <= x.phases_s["total"] for x in verdicts)


def test_mismatch_statistics(cpu_verifier):
    v = cpu_verifier.verify(req("relu_cc_wrong"))
    m = v.mismatch
    assert m.trial == 0 and m.first_bad_index is not None and len(m.first_bad_index) == 2
    assert m.max_abs_err > 1e-4 and 0 < m.rel_norm_err < 1
    assert len(v.seeds) == 5 and len(set(v.seeds)) == 5


def test_unwritten_output_shows_up_as_poison_or_zero(cpu_verifier):
    v = cpu_verifier.verify(req("relu_cc_unwritten"))
    assert v.status == "incorrect"
    assert "relative norm error" in v.error.message or "NaN" in v.error.message


def test_segfault_log_names_the_candidate_line(cpu_verifier):
    v = cpu_verifier.verify(req("relu_cc_segfault"))
    assert "SIGSEGV" in v.error.message
    assert "candidate.py" in v.error.log


def test_parameters_copied_from_reference(cpu_verifier):
    v = cpu_verifier.verify(req("scale_add_cc_ok", task=load_task(DATA / "tasks" / "scale_add.py")))
    assert v.status == "correct", v.error
    assert any("copied 2 parameter" in n for n in v.notes)


def test_seed_makes_trials_reproducible(cpu_verifier):
    a = cpu_verifier.verify(req("relu_cc_wrong", seed=1234))
    b = cpu_verifier.verify(req("relu_cc_wrong", seed=1234))
    assert a.seeds == b.seeds
    assert a.mismatch.max_abs_err == b.mismatch.max_abs_err


def test_timing_fields_and_baseline_cache(cpu_verifier):
    timing = TimingConfig(enabled=True, n=5, warmup=1, compile=False)
    first = cpu_verifier.verify(req("relu_cc_ok", timing=timing, seed=7))
    assert first.status == "correct", first.error
    t = first.to_dict()["timing"]
    for key in ("candidate_ms", "eager_ms", "compile_ms", "speedup_eager", "speedup_compile", "cv", "n"):
        assert key in t
    assert t["candidate_ms"] > 0 and t["eager_ms"] > 0 and t["n"] == 5
    assert t["speedup_eager"] == pytest.approx(t["eager_ms"] / t["candidate_ms"])
    assert set(first.phases_s) >= {"queue", "compile", "load", "check", "time"}
    # the wait for the judge (the last job's clean-up runs after its verdict is sent)
    assert 0 <= first.phases_s["queue"] < first.phases_s["total"]
    # the lane's time on the job, and the check's parts: the float64 oracle and the shape variants
    assert 0 < first.phases_s["judge"] <= first.phases_s["total"]
    assert first.phases_s["precision"] < first.phases_s["check"] and first.phases_s["variants"] < first.phases_s["check"]
    # eager/compile baselines are a property of the task: timed once, then reused, unless the
    # machine was too busy for a steady measurement, which is never cached
    second = cpu_verifier.verify(req("relu_cc_ok", timing=timing, seed=8))
    if first.timing.baseline.steady:
        assert first.timing.baseline.cached and second.timing.baseline.source == "cache"
        assert second.timing.eager_ms == t["eager_ms"]
        assert any("from the cache" in n for n in second.notes)
    else:
        assert not first.timing.baseline.cached and second.timing.baseline.source == "measured"


def test_degenerate_task_is_flagged_not_the_candidate(cpu_verifier):
    with pytest.raises(TaskError, match="does not change with the inputs"):
        cpu_verifier.verify(req("relu_cc_ok", task=load_task(DATA / "tasks" / "constant.py")))


def test_task_whose_get_inputs_raises(cpu_verifier):
    with pytest.raises(TaskError, match="get_inputs\\(\\) raised RuntimeError: dataset not found"):
        cpu_verifier.verify(req("relu_cc_ok", task=load_task(DATA / "tasks" / "get_inputs_raises.py")))


# a flag set of the header test's own, so that its first build makes the precompiled header
PCH_TEST_FLAGS = '["-O2", "-DKMOSAIC_PCH_TEST"]'


@pytest.mark.slow
def test_load_inline_builds_cache_their_library_and_precompile_the_binding_header(cpu_verifier, cache_dir):
    """KernelBench's own format on the CPU, a real g++ build against torch's headers, and both build
    caches through the verifier. The same candidate again skips the build (the content-addressed
    library cache). builder.PchCache: the first build of a flag set of its own makes the
    precompiled torch/extension.h, which the judge stores hashed under <cache>/build/pch; the next
    candidate with the same flags (other code, so no object or library is reused) compiles main.cpp
    with it, in less time. A stored header that no longer matches its hash is not used: the next
    build makes it again and the judge replaces the entry. (One test: each cold build of torch's
    binding costs about a minute of this machine's CI.)"""
    import re

    from kernelmosaic.task import sha256_file
    from kernelmosaic.verify.builder import PCH_HEADER

    pch = Path(cache_dir) / "build" / "pch"
    stored = lambda: {p.name for p in pch.glob("*") if re.fullmatch(r"[0-9a-f]{64}", p.name)}  # noqa: E731
    before = stored()
    base = read("cpu/relu_inline_ok.py").replace('extra_cflags=["-O2"]', f'extra_cflags={PCH_TEST_FLAGS}')

    def verify(tag: str):
        src = base.replace('name="kmosaic_test_relu"', f'name="kmosaic_test_relu_pch_{tag}"').replace(
            "auto xc = x.contiguous();", f"auto xc = x.contiguous();  // {tag}")
        v = cpu_verifier.verify(VerifyRequest(candidate=src, task=relu_task(), backend="cpp", timing=NO_TIMING))
        assert v.status == "correct", v.error
        assert not any("reused" in n for n in v.notes), v.notes  # nothing came from the object cache
        return v

    used = "main.cpp was compiled with the precompiled torch/extension.h (the same flags and toolchain)"
    t0 = time.monotonic()
    first = verify("a")
    cold = time.monotonic() - t0
    t0 = time.monotonic()
    again = verify("a")  # the same candidate: its library comes from the cache, nothing is compiled
    assert again.phases_s["compile"] < first.phases_s["compile"] / 3, (first.phases_s, again.phases_s)
    assert time.monotonic() - t0 < cold
    made = stored() - before
    assert len(made) == 1, (before, stored())
    entry = pch / made.pop()
    gch = entry / (PCH_HEADER + ".gch")
    assert json.loads((entry / "manifest.json").read_text())["sha256"] == sha256_file(gch)
    assert used in first.notes, first.notes  # the build that made it used it
    second = verify("b")
    assert used in second.notes, second.notes
    assert second.phases_s["compile"] < first.phases_s["compile"] * 0.6, (first.phases_s, second.phases_s)
    gch.write_bytes(b"not the header the judge stored")  # as a candidate could not: the cache is read-only to it
    third = verify("c")
    assert stored() - before == {entry.name}
    assert json.loads((entry / "manifest.json").read_text())["sha256"] == sha256_file(gch) and gch.stat().st_size > 1 << 20


@pytest.mark.slow
def test_a_changed_build_reuses_its_unchanged_compiled_file(cpu_verifier, cache_dir):
    """The object cache (builder.ObjectCache): a request that differs only in its link flags
    compiles nothing again, its main.cpp object comes from the first build. A stored object that
    no longer matches its hash (written by anyone but the judge) is not used: the next build
    compiles afresh and its verdict stands."""
    objects = Path(cache_dir) / "build" / "objects"
    before = set(objects.glob("*/object.o"))
    # the header test's flags: main.cpp compiles with the header it made (alone, this build makes it)
    src = read("cpu/relu_inline_ok.py").replace('name="kmosaic_test_relu"', 'name="kmosaic_test_relu_objects"').replace(
        'extra_cflags=["-O2"]', f'extra_cflags={PCH_TEST_FLAGS}')
    first = cpu_verifier.verify(VerifyRequest(candidate=src, task=relu_task(), backend="cpp", timing=NO_TIMING))
    assert first.status == "correct", first.error
    stored = sorted(set(objects.glob("*/object.o")) - before)
    assert len(stored) == 1, stored  # main.cpp's object (a cpp-only build has no other compile)
    linked = src.replace(f'extra_cflags={PCH_TEST_FLAGS})', f'extra_cflags={PCH_TEST_FLAGS}, extra_ldflags=["-lm"])')
    second = cpu_verifier.verify(VerifyRequest(candidate=linked, task=relu_task(), backend="cpp", timing=NO_TIMING))
    assert second.status == "correct", second.error
    assert any("reused 1 compiled file" in n for n in second.notes), second.notes
    assert second.phases_s["compile"] < first.phases_s["compile"] / 2, (first.phases_s, second.phases_s)
    # the stored object, overwritten (as a candidate could not: the cache is read-only to it)
    for p in stored:
        p.write_bytes(b"\x7fELF not the object that was built")
    third = cpu_verifier.verify(VerifyRequest(candidate=linked.replace('["-lm"]', '["-lm", "-lpthread"]'), task=relu_task(),
                                              backend="cpp", timing=NO_TIMING))
    assert third.status == "correct", third.error
    assert not any("reused" in n for n in third.notes), third.notes
    # and the judge replaced the bad entry with the object it just built
    assert all(p.read_bytes().startswith(b"\x7fELF") and b"not the object" not in p.read_bytes() for p in stored)


def test_speed_of_light_floor_rejects_implausible_times(cache_dir):
    """With a bandwidth far below the machine's, every real time is 'faster than physics'. The
    FLOPs part of the floor is shown and never decides: a correct kernel may need fewer FLOPs than
    the reference (an exact algebraic shortcut), so a peak far below the machine's rejects nothing."""
    from kernelmosaic.verify import Verifier

    timing = TimingConfig(enabled=True, n=3, warmup=1, compile=False)
    adv = DATA.parent / "adversarial"
    task = load_task(adv / "tasks" / "matmul_rand.py")  # a matmul: FLOPs for torch's counter to count
    with Verifier(device="cpu", workers=1, prewarm=False, cache_dir=cache_dir,
                  ceilings={"bandwidth_gbs": 1e-6, "peak_tflops": 1e6}) as v:
        verdict = v.verify(req("relu_cc_ok", timing=timing))
    assert verdict.status == "rejected", verdict.error
    assert "below_speed_of_light" in set(verdict.rules) and "memory floor" in verdict.rejections[0].detail
    assert verdict.timing.floor_ms > verdict.timing.candidate_ms
    with Verifier(device="cpu", workers=1, prewarm=False, cache_dir=cache_dir,
                  ceilings={"bandwidth_gbs": 1e6, "peak_tflops": 1e-12}) as v:
        verdict = v.verify(VerifyRequest(candidate=(adv / "control_matmul_c.py").read_text(), task=task, backend="cpp",
                                         timing=timing, trials=2))
    assert verdict.status == "correct", verdict.error
    assert verdict.timing.floor_ms > verdict.timing.candidate_ms  # the FLOPs floor, shown
