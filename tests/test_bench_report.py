"""KernelBench metrics and the report (kernelmosaic.bench): fast, CPU only, no GPU."""

from __future__ import annotations

import base64
import hashlib
import math
import re
from math import comb

import pytest

from kernelmosaic.bench import (
    PUBLISHED,
    PUBLISHED_LABEL,
    compute_metrics,
    fast_p,
    find_chromium,
    pass_at_k,
    screenshot,
    task_category,
    write_report,
)
from kernelmosaic.data import Store, TurnRecord

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _sha(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# -- pass@k and fast_p ----------------------------------------------------------------------------
def test_pass_at_k_hand_values():
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    assert pass_at_k(10, 0, 5) == 0.0
    assert pass_at_k(10, 10, 1) == 1.0
    assert pass_at_k(10, 10, 10) == 1.0
    assert pass_at_k(10, 1, 10) == 1.0  # k = n: one correct sample among all n
    assert pass_at_k(10, 0, 10) == 0.0
    assert pass_at_k(5, 2, 2) == pytest.approx(1 - comb(3, 2) / comb(5, 2))  # 0.7
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - comb(7, 5) / comb(10, 5))
    # stable where the binomials are huge
    assert pass_at_k(2000, 1, 1) == pytest.approx(1 / 2000)
    assert 0.0 <= pass_at_k(2000, 1000, 100) <= 1.0
    for bad in [(0, 0, 1), (5, 6, 1), (5, 2, 0), (5, 2, 6), (5, -1, 1)]:
        with pytest.raises(ValueError):
            pass_at_k(*bad)


def test_fast_p_semantics():
    results = [
        {"correct": True, "speedup_eager": 2.0, "speedup_compile": 0.5},
        {"correct": True, "speedup_eager": 1.0, "speedup_compile": 1.2},  # exactly 1: not > 1
        {"correct": True, "speedup_eager": None, "speedup_compile": None},  # correct but not timed
        {"correct": False, "speedup_eager": 5.0, "speedup_compile": 5.0},  # fast but wrong
        {"correct": True, "timing": {"speedup_eager": 0.4, "speedup_compile": 3.0}},
    ]
    assert fast_p(results, 0) == pytest.approx(3 / 5)  # denominator: ALL problems
    assert fast_p(results, 1) == pytest.approx(1 / 5)
    assert fast_p(results, 0.5) == pytest.approx(2 / 5)
    assert fast_p(results, 2) == 0.0
    assert fast_p(results, 1, baseline="compile") == pytest.approx(2 / 5)
    assert fast_p(results, 0, baseline="compile") == pytest.approx(3 / 5)
    assert fast_p([], 1) == 0.0
    with pytest.raises(ValueError):
        fast_p(results, 1, baseline="cudnn")


def test_task_category():
    assert task_category("L2/12_Gemm_Multiply_LeakyReLU", 2) == "matmul/gemm"
    assert task_category("L2/1_Conv2D_ReLU_BiasAdd", 2) == "convolution"
    assert task_category("L1/23_Softmax", 1) == "activation"
    assert task_category("L1/42_Max_Pooling_2D", 1) == "pooling"
    assert task_category("L1/47_Sum_reduction_over_a_dimension", 1) == "reduction/scan"
    assert task_category("L3/7_Qwerty", 3) == "L3 other"


# -- a store built by hand ------------------------------------------------------------------------
def _verdict(status, timing=None, compiled=None, message=None, mismatch=None):
    return {
        "status": status, "backend": "cuda", "policy": "strict", "task": "t", "device": "cpu",
        "correct": status == "correct",
        "compiled": status not in ("compile_error", "invalid_candidate") if compiled is None else compiled,
        "seeds": [1], "tolerances": {}, "error": {"kind": status, "message": message, "log": "log <b>x</b>"}
        if message else None, "mismatch": mismatch, "rejections": [], "timing": timing, "phases_s": {},
        "env": {}, "notes": [],
    }


def _t(se, sc, eager_ms=1.0):
    """timing with speedups se (eager) and sc (compile)."""
    cand = eager_ms / se
    return {"candidate_ms": cand, "eager_ms": eager_ms, "compile_ms": cand * sc, "speedup_eager": se,
            "speedup_compile": sc, "cv": 0.01, "n": 30}


def _episode(store, run, task, sample, turns, best_turn="auto", finish=True):
    ep, _ = store.begin_episode(run, task, sample)
    for i, v in enumerate(turns):
        stage = "implement" if i == 0 else ("optimize" if turns[i - 1]["status"] == "correct" else "repair")
        code = f"# {task} sample {sample} turn {i}\nimport torch\nx = {i} < {i + 1}\nclass ModelNew: pass\n"
        store.add_turn(TurnRecord(
            episode_id=ep.episode_id, idx=i, stage=stage, messages=[{"role": "user", "content": "write it"}],
            reply=f"```python\n{code}```", code=code, verdict=v,
            feedback="" if i == 0 else "<script>alert('previous turn failed')</script> & fix it",
            guidance_ids=["cuda.grid-stride", "cuda.coalesce"] if i else []))
    if not finish:
        return ep
    if best_turn == "auto":
        correct = [i for i, v in enumerate(turns) if v["status"] == "correct"]
        best_turn = max(correct, key=lambda i: turns[i]["timing"]["speedup_eager"]) if correct else None
    ok = best_turn is not None and turns[best_turn]["status"] == "correct"
    store.finish_episode(ep.episode_id, "done", best_turn=best_turn,
                         best_speedup=turns[best_turn]["timing"]["speedup_eager"] if ok else None, correct=ok)
    return ep


RELU, MATMUL, SOFTMAX = "L1/19_ReLU", "L1/1_Square_matrix_multiplication_", "L1/23_Softmax"
GEMM, CUSTOM = "L2/12_Gemm_Multiply_LeakyReLU", "custom_op"


def _build_a(path):
    """Run A: 5 samples per task; levels 1 and 2 plus one unregistered task (level 'other')."""
    with Store(path) as st:
        for key, lv in [(RELU, 1), (MATMUL, 1), (SOFTMAX, 1), (GEMM, 2)]:
            st.add_task(key, _sha(key), f"# {key}", level=lv)
        run = st.start_run("model-a", run_id="run-a")
        ce = _verdict("compile_error", message="nvcc: error: expected ';' <here>")
        inc = _verdict("incorrect", message="mismatch", mismatch={"max_abs_err": 0.5, "reason": "x < y"})
        # ReLU: sample 0 compile_error -> correct (2.0x / 1.5x); samples 1, 4 correct; c = 3 of 5
        _episode(st, run, RELU, 0, [ce, _verdict("correct", _t(2.0, 1.5))])
        for s, ok in [(1, True), (2, False), (3, False), (4, True)]:
            _episode(st, run, RELU, s, [_verdict("correct", _t(1.1, 1.0)) if ok else inc])
        # matmul: correct at 0.5x, optimized to 1.2x / 0.8x; every sample correct
        _episode(st, run, MATMUL, 0, [_verdict("correct", _t(0.5, 0.25)), _verdict("correct", _t(1.2, 0.8))])
        for s in range(1, 5):
            _episode(st, run, MATMUL, s, [_verdict("correct", _t(0.9, 0.9))])
        # softmax: never compiles; no sample correct
        _episode(st, run, SOFTMAX, 0, [ce, ce])
        for s in range(1, 5):
            _episode(st, run, SOFTMAX, s, [inc])
        # gemm (L2): incorrect -> correct at exactly 1.0x eager; 2 of 5 correct
        _episode(st, run, GEMM, 0, [inc, _verdict("correct", _t(1.0, 0.9))])
        for s in range(1, 5):
            _episode(st, run, GEMM, s, [_verdict("correct", _t(1.3, 1.1)) if s == 3 else inc])
        # an unregistered task without a level
        for s in range(5):
            _episode(st, run, CUSTOM, s, [_verdict("runtime_error", message="CUDA error: illegal memory access")])


def _build_b(path):
    """Run B: one sample per task, one episode left running (interrupted)."""
    with Store(path) as st:
        st.add_task(RELU, _sha(RELU), f"# {RELU}", level=1)
        run = st.start_run("model-b", run_id="run-b")
        _episode(st, run, RELU, 0, [_verdict("correct", _t(3.0, 2.5))])
        _episode(st, run, GEMM, 0, [_verdict("incorrect", message="wrong")])
        _episode(st, run, SOFTMAX, 0, [_verdict("incorrect", message="wrong"), _verdict("correct", _t(0.7, 0.6))],
                 finish=False)


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    d = tmp_path_factory.mktemp("bench")
    a, b = d / "a.db", d / "b.db"
    _build_a(a)
    _build_b(b)
    return a, b


def test_compute_metrics(stores):
    a, _ = stores
    m = compute_metrics(a, "run-a")
    assert m.model == "model-a" and m.samples == [0, 1, 2, 3, 4]
    assert sorted(m.levels) == [0, 1, 2]
    l1, l2, other, allm = m.levels[1], m.levels[2], m.levels[0], m.overall
    assert (l1.n_problems, l2.n_problems, other.n_problems, allm.n_problems) == (3, 1, 1, 5)
    assert l1.n_episodes == 15
    assert l1.compiled_pct == pytest.approx(200 / 3)  # softmax never compiled
    assert l1.correct_pct == pytest.approx(200 / 3)
    assert l1.fast_p_eager[0.0] == pytest.approx(2 / 3)
    assert l1.fast_p_eager[1.0] == pytest.approx(2 / 3)
    assert l1.fast_p_eager[1.5] == pytest.approx(1 / 3)
    assert l1.fast_p_eager[2.0] == 0.0  # 2.0 is not > 2
    assert l1.fast_p_compile[1.0] == pytest.approx(1 / 3)
    assert l1.fast_p_compile[1.5] == 0.0
    assert l1.geomean_speedup_eager == pytest.approx(math.sqrt(2.0 * 1.2))
    assert l1.geomean_speedup_compile == pytest.approx(math.sqrt(1.5 * 0.8))
    assert l1.pass_at_k[1] == pytest.approx((3 / 5 + 1 + 0) / 3)
    assert l1.pass_at_k[5] == pytest.approx(2 / 3)
    assert 10 not in l1.pass_at_k  # only 5 samples per task
    assert l1.turns_to_first_correct == {1: 1, 2: 1} and l1.never_correct == 1
    assert l2.correct_pct == 100.0 and l2.fast_p_eager[0.0] == 1.0 and l2.fast_p_eager[1.0] == 0.0
    assert l2.pass_at_k[1] == pytest.approx(2 / 5)
    assert other.label == "other" and other.correct_pct == 0.0 and other.compiled_pct == 100.0
    assert allm.correct_pct == pytest.approx(60.0)
    assert allm.fast_p_eager[1.0] == pytest.approx(2 / 5)
    rows = {r.task: r for r in m.tasks}
    assert [r.task for r in m.tasks][:3] == [MATMUL, RELU, SOFTMAX]  # natural order within a level
    relu = rows[RELU]
    assert (relu.correct, relu.best_turn, relu.first_correct_turn, relu.n_turns) == (True, 1, 1, 2)
    assert relu.speedup_eager == 2.0 and relu.eager_ms == 1.0 and relu.candidate_ms == pytest.approx(0.5)
    assert (relu.n_samples, relu.n_correct_samples, relu.final_status) == (5, 3, "correct")
    sm = rows[SOFTMAX]
    assert (sm.correct, sm.compiled, sm.best_turn, sm.first_correct_turn, sm.final_status) == \
        (False, False, None, None, "compile_error")
    d = m.to_dict()
    assert d["levels"][1]["fast_p_eager"][1.0] == pytest.approx(2 / 3) and len(d["tasks"]) == 5
    # samples=1: only sample 0 -> pass@1 equals correct rate, no pass@5
    m1 = compute_metrics(a, "run-a", samples=1)
    assert m1.levels[1].pass_at_k == {1: pytest.approx(2 / 3)} and m1.levels[1].n_episodes == 3
    with pytest.raises(KeyError):
        compute_metrics(a, "nope")


def test_compute_metrics_unfinished_episode(stores):
    _, b = stores
    with Store(b) as st:
        m = compute_metrics(st, "run-b")
    rows = {r.task: r for r in m.tasks}
    # an interrupted episode without a recorded best turn: its correct turn stands in
    assert rows[SOFTMAX].episode_status == "running" and rows[SOFTMAX].correct and rows[SOFTMAX].best_turn == 1
    assert m.levels[1].correct_pct == 100.0 and m.levels[2].correct_pct == 0.0
    assert m.levels[1].pass_at_k == {1: 1.0}


@pytest.fixture(scope="module")
def report(stores, tmp_path_factory):
    a, b = stores
    out = tmp_path_factory.mktemp("report")
    md, html = write_report([(a, "run-a"), (str(b), "run-b")], out, trajectory_samples=2)
    return md, html


def test_write_report_markdown(report):
    md, _ = report
    text = md.read_text()
    assert "| level | run | n | compiled | correct |" in text
    assert "| L1 | run-a | 3 | 66.7% | 66.7% |" in text
    assert "| L2 | run-b | 1 | 100.0% | 0.0% |" in text
    assert "| all | run-a | 5 |" in text
    assert PUBLISHED_LABEL in text and "| 88.0% |" in text
    for png in ("fast_p.png", "speedups.png", "categories.png", "turns.png"):
        assert f"]({png})" in text and (md.parent / png).read_bytes().startswith(PNG_MAGIC)


def test_write_report_html_self_contained(report):
    _, html = report
    text = html.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert "<script" not in text.lower() and "<link" not in text.lower() and "@import" not in text
    imgs = re.findall(r"<img[^>]*>", text)
    assert len(imgs) == 4
    for tag in imgs:
        m = re.search(r"""src=['"]data:image/png;base64,([A-Za-z0-9+/=]+)['"]""", tag)
        assert m, tag[:80]
        assert base64.b64decode(m.group(1)).startswith(PNG_MAGIC)
    # published numbers, labelled
    assert PUBLISHED_LABEL in text and "not results of the runs" in text
    assert all(r["source"] in text for r in PUBLISHED)


def test_write_report_trajectory_viewer(report):
    _, html = report
    text = html.read_text()
    # one collapsible entry per problem and run: 5 in run A, 3 in run B
    assert text.count('<details class="task">') == 8
    assert "Trajectories: run-a" in text and "Trajectories: run-b" in text
    assert html_escaped("<script>alert('previous turn failed')</script>") in text  # feedback, escaped
    assert html_escaped("nvcc: error: expected ';' <here>") in text  # the verdict's error message
    assert "max_abs_err" in text and "speedup_eager" in text  # mismatch and timing
    assert "cuda.grid-stride" in text  # guidance ids
    assert 'class="d-add"' in text and 'class="d-del"' in text  # the code diff between turns
    assert html_escaped("+x = 1 < 2") in text
    assert "sample 1" in text  # trajectory_samples=2 shows a second sample


def html_escaped(s: str) -> str:
    import html as h

    return h.escape(s, quote=True)


def test_write_report_whole_store(stores, tmp_path):
    a, _ = stores
    md, html = write_report(a, tmp_path / "r")  # a bare path: every run in the store
    assert "run-a" in md.read_text() and html.is_file()


def test_screenshot(report, tmp_path):
    if find_chromium() is None:
        pytest.skip("no chromium on PATH")
    _, html = report
    png = screenshot(html, tmp_path / "shot.png", height=1200)
    data = png.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 20_000
