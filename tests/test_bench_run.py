"""`kmosaic bench` then `kmosaic report`, end to end on the CPU: a tiny KernelBench-format
directory written here, the scripted policy served over real HTTP to the real openai client,
real verifier workers and compilers (cpp raw-C backend), a real store; single and agent mode,
a resume that does no new work, stored and measured baselines, then the report."""

import dataclasses
import json
import os
import re
import subprocess
import sys

import pytest

import agent_scripts as S
from conftest import DATA, ROOT
from kernelmosaic.agent.scripted_server import ScriptedServer
from kernelmosaic.bench import compute_metrics, find_chromium
from kernelmosaic.bench.baselines import stored_baselines
from kernelmosaic.bench.run import default_run_id, parse_problems, parse_turns
from kernelmosaic.data import Store

RELU, SCALE, UNSOLVED, SKIPPED = "L1/1_ReLU", "L1/2_ScaleAdd", "L2/1_ReLU_unsolved", "L1/9_NotSelected"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    """Four problems in KernelBench's layout, plus stored timings for two of them."""
    d = tmp_path_factory.mktemp("kb")
    relu = (DATA / "tasks" / "relu.py").read_text()
    (d / "level1").mkdir()
    (d / "level2").mkdir()
    (d / "level1" / "1_ReLU.py").write_text(relu)
    (d / "level1" / "2_ScaleAdd.py").write_text((DATA / "tasks" / "scale_add.py").read_text())
    (d / "level1" / "9_NotSelected.py").write_text(relu)
    (d / "level2" / "1_ReLU_unsolved.py").write_text("# the same graph, another problem\n" + relu)
    hw = d / "baseline_times" / "H100_Modal"
    hw.mkdir(parents=True)
    (hw / "baseline_time_torch.json").write_text(json.dumps({
        "level1": {"1_ReLU.py": {"mean": 2.0, "hardware": "NVIDIA H100 80GB HBM3"}, "2_ScaleAdd.py": {"mean": 1.0}}}))
    (hw / "baseline_time_torch_compile_inductor_default.json").write_text(json.dumps({
        "level1": {"1_ReLU.py": {"mean": 4.0}}}))
    return d


def _scripts():
    scale_ok = f"```python\n{(DATA / 'cpu' / 'scale_add_cc_ok.py').read_text()}```"
    return {RELU: S.by_conversation, SCALE: [scale_ok], UNSOLVED: [S.NO_CODE]}


def _bench(kb, db, url, cache, *args):
    env = {**os.environ, "KMOSAIC_CACHE_DIR": str(cache)}
    cmd = [sys.executable, "-m", "kernelmosaic.cli", "bench", "--kernelbench", str(kb), "--levels", "1,2",
           "--problems", "1-3", "--model", "scripted-coder", "--base-url", url, "--api-key", "x", "--store", str(db),
           "--device", "cpu", "--backend", "cpp", "--timing-runs", "5", "--workers", "2", "--concurrency", "3", *args]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert "Traceback" not in r.stderr + r.stdout, r.stderr + r.stdout
    return r


def test_parsers():
    assert parse_problems("1-3,7, 9-10") == {1, 2, 3, 7, 9, 10}
    assert parse_problems("L2/76,l1/3-4, 9") == {(2, 76), (1, 3), (1, 4), 9}
    assert parse_problems(None) is None and parse_problems("") is None
    for bad in ("1-", "a", "5-2", "L2/"):
        with pytest.raises(ValueError):
            parse_problems(bad)
    assert parse_turns("4,2") == (4, 2)
    with pytest.raises(ValueError):
        parse_turns("4")
    assert default_run_id("agent", "org/Model 7B") == "bench-agent-org_Model_7B"


def test_stored_baselines(kb):
    s = stored_baselines(kb)
    assert s[RELU]["eager_ms"] == 2.0 and s[RELU]["compile_ms"] == 4.0 and s[SCALE]["eager_ms"] == 1.0
    assert "compile_ms" not in s[SCALE] and s[RELU]["hardware"] == "NVIDIA H100 80GB HBM3"


@pytest.fixture(scope="module")
def runs(kb, tmp_path_factory):
    """Agent mode (measured baselines), a rerun of it, and single mode (stored baselines)."""
    d = tmp_path_factory.mktemp("bench")
    cache = d / "cache"
    with ScriptedServer(_scripts()) as srv:
        # two warm-up processes compile the torch.compile baselines in parallel before they are timed
        agent = _bench(kb, d / "agent.db", srv.base_url, cache, "--mode", "agent", "--turns", "2,1", "--warm-lanes", "2")
        n_agent = len(srv.requests)
        again = _bench(kb, d / "agent.db", srv.base_url, cache, "--mode", "agent", "--turns", "2,1")
        n_again = len(srv.requests) - n_agent
        srv.served.clear()
        single = _bench(kb, d / "single.db", srv.base_url, cache, "--mode", "single", "--samples", "2",
                        "--baselines", "kernelbench")
    return {"dir": d, "agent": agent, "again": again, "single": single, "n_agent": n_agent, "n_again": n_again}


def test_agent_mode(runs):
    r = runs["agent"]
    # L2's problem never gets code, so no episode failed but one problem is unsolved
    assert r.returncode == 0, r.stdout + r.stderr
    assert "baselines: 3 measured, 0 from the cache" in r.stdout
    with Store(runs["dir"] / "agent.db") as st:
        rid = default_run_id("agent", "scripted-coder")
        settings = st.get_run(rid).settings["bench"]
        assert settings["mode"] == "agent" and settings["turns"] == [2, 1] and settings["baselines"] == "measure"
        eps = {e.task_key: e for e in st.episodes(rid)}
        assert set(eps) == {RELU, SCALE, UNSOLVED}  # --problems 1-3 left 9_NotSelected out
        relu = st.turns(eps[RELU].episode_id)
        assert [t.verdict.status for t in relu] == ["compile_error", "incorrect", "correct", "correct"]
        assert [t.stage for t in relu] == ["implement", "repair", "repair", "optimize"]
        assert "COMPILE ERROR" in relu[1].messages[-1]["content"]  # feedback went back to the model
        assert [t.verdict.status for t in st.turns(eps[UNSOLVED].episode_id)] == ["invalid_candidate"] * 3
        # every timed verdict used the baselines measured up front, from the cache, unless the
        # machine was too busy for them to be cached (then each verdict timed them again)
        timed = [t.verdict.to_dict() for e in eps.values() for t in st.turns(e.episode_id) if t.verdict.timing]
        noisy = "too noisy to cache" in r.stdout
        assert timed and all(v["timing"]["baseline"]["source"] in (("cache", "measured") if noisy else ("cache",)) for v in timed)
        assert all(any("baselines from the cache" in n for n in v["notes"]) for v in timed
                   if v["timing"]["baseline"]["source"] == "cache")
        assert all(v["timing"]["eager_ms"] and v["timing"]["compile_ms"] for v in timed)
    m = compute_metrics(runs["dir"] / "agent.db", rid)
    assert m.levels[1].correct_pct == 100.0 and m.levels[2].correct_pct == 0.0
    assert m.levels[1].turns_to_first_correct == {1: 1, 3: 1} and m.overall.never_correct == 1
    assert runs["n_agent"] == 4 + 2 + 3  # relu: 4 turns; scale: implement + optimize; unsolved: 3


def test_rerun_does_no_new_work(runs):
    r = runs["again"]
    assert r.returncode == 0, r.stdout + r.stderr
    assert runs["n_again"] == 0  # not one request to the model
    assert "0 episodes run now" in r.stdout and "baselines: 0 measured" in r.stdout


def test_single_mode_with_stored_baselines(runs):
    r = runs["single"]
    assert r.returncode == 0, r.stdout + r.stderr
    with Store(runs["dir"] / "single.db") as st:
        rid = default_run_id("single", "scripted-coder")
        eps = st.episodes(rid)
        assert len(eps) == 6 and all(e.n_turns == 1 for e in eps)  # 3 problems x 2 samples, one turn each
        relu = [st.turns(e.episode_id)[0].verdict.to_dict() for e in eps if e.task_key == RELU]
        scale = [st.turns(e.episode_id)[0].verdict.to_dict() for e in eps if e.task_key == SCALE]
    assert [v["status"] for v in relu] == ["compile_error", "compile_error"]
    for v in scale:
        t = v["timing"]
        assert v["status"] == "correct" and t["eager_ms"] == 1.0 and t["compile_ms"] is None
        assert t["speedup_eager"] == pytest.approx(1.0 / t["candidate_ms"]) and t["speedup_compile"] is None
        assert any("KernelBench's stored ones" in n for n in v["notes"])
    m = compute_metrics(runs["dir"] / "single.db", rid)
    assert m.levels[1].pass_at_k == {1: pytest.approx(0.5)}  # relu 0/2, scale 2/2


def test_report_over_both_runs(runs, tmp_path):
    d = runs["dir"]
    shot = ["--screenshot"] if find_chromium() else []  # the page renders in a real browser
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "report", str(d / "agent.db"), str(d / "single.db"),
                        "--out", str(tmp_path / "rep"), *shot], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    if shot:
        assert (tmp_path / "rep" / "report.png").read_bytes().startswith(b"\x89PNG")
    html = (tmp_path / "rep" / "report.html").read_text()
    assert len(re.findall(r"<img[^>]*src='data:image/png;base64,", html)) == 4  # the plots, embedded
    assert "Trajectories: bench-agent-scripted-coder" in html and "Trajectories: bench-single-scripted-coder" in html
    assert 'class="d-add"' in html  # the code diff between the agent's turns
    assert "measured here" in html and "KernelBench stored (H100_Modal)" in html  # each run's baselines
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "| L1 | bench-agent-scripted-coder | 2 | 100.0% | 100.0% |" in md


def test_usage_errors(kb, tmp_path):
    for args, msg in [(["--mode", "multi"], "--mode must be one of"), (["--baselines", "h100"], "--baselines must be"),
                      (["--problems", "x"], "--problems expects"), (["--turns", "3"], "--turns expects"),
                      (["--problems", "50-60"], "no problems match")]:
        r = _bench(kb, tmp_path / "u.db", "http://127.0.0.1:9/v1", tmp_path / "c", *args)
        assert r.returncode == 2 and msg in r.stderr, (args, r.stderr)


def test_a_resumed_run_keeps_its_settings(runs, kb, tmp_path):
    # other --turns on an existing run would be reported under the old ones: refused, nothing run
    r = _bench(kb, runs["dir"] / "agent.db", "http://127.0.0.1:9/v1", runs["dir"] / "cache", "--mode", "agent", "--turns", "3,1")
    assert r.returncode == 2 and "was started with other settings (turns: [2, 1], now [3, 1])" in r.stderr, r.stderr
    # a bad --stored-hardware stops before a run is recorded, so a later call is not bound to it
    r = _bench(kb, tmp_path / "fresh.db", "http://127.0.0.1:9/v1", tmp_path / "c", "--mode", "single",
               "--baselines", "kernelbench", "--stored-hardware", "NO_SUCH_GPU")
    assert r.returncode == 2, r.stderr
    with Store(tmp_path / "fresh.db") as st:
        assert st.run_ids() == []


def test_protocol_kernelbench_reports_both_scores(kb, tmp_path):
    """One bench run, two scores: the episodes run on the project's verdicts, then every turn with
    code is judged again by KernelBench's evaluator (verify/protocols.py) and recorded beside
    them. The ScaleAdd reply makes its weights with torch.empty: correct here (Model's parameters
    are copied in), incorrect under KernelBench (its own weights, nothing copied). A rerun judges
    nothing again."""
    db, cache = tmp_path / "kb.db", tmp_path / "cache"
    with ScriptedServer(_scripts()) as srv:
        first = _bench(kb, db, srv.base_url, cache, "--mode", "single", "--baselines", "kernelbench",
                       "--protocol", "kernelbench")
        again = _bench(kb, db, srv.base_url, cache, "--mode", "single", "--baselines", "kernelbench",
                       "--protocol", "kernelbench")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "judged by the kernelbench protocol" in first.stdout and "2 turns judged under the kernelbench protocol now" in first.stdout
    assert again.returncode == 0 and "0 turns judged under the kernelbench protocol now" in again.stdout, again.stdout
    rid = default_run_id("single", "scripted-coder")
    ours, theirs = compute_metrics(db, rid), compute_metrics(db, rid, protocol="kernelbench")
    row = {r.task: r for r in ours.tasks}
    row_kb = {r.task: r for r in theirs.tasks}
    assert row[SCALE].correct and not row_kb[SCALE].correct
    assert not row[RELU].correct and not row_kb[RELU].correct  # a compile error under either
    assert ours.levels[1].correct_pct == 50.0 and theirs.levels[1].correct_pct == 0.0
    with Store(db) as st:
        judged = st.protocol_verdicts(rid, "kernelbench")
        assert {v.status for v in judged.values()} == {"incorrect", "compile_error"}
        assert all(v.protocol == "kernelbench" and v.seeds[0] == 734796314 for v in judged.values())
        # the episodes' own verdicts are untouched
        eps = {e.task_key: e for e in st.episodes(rid)}
        assert st.turns(eps[SCALE].episode_id)[0].verdict.status == "correct"
        # an infra_error under the protocol (the verifier failed) is no verdict: the next run judges
        # the turn again, and the store keeps the failed one
        key = next(k for k, v in judged.items() if v.task == SCALE)
        failed = dataclasses.replace(judged[key], status="infra_error", correct=False)
        st.add_protocol_verdict(*key, failed, supersede="a stand-in for the verifier's failure")
    with ScriptedServer(_scripts()) as srv:
        third = _bench(kb, db, srv.base_url, cache, "--mode", "single", "--baselines", "kernelbench",
                       "--protocol", "kernelbench")
    assert third.returncode == 0 and "1 turns judged under the kernelbench protocol now" in third.stdout, third.stdout
    with Store(db) as st:
        assert st.protocol_verdicts(rid, "kernelbench")[key].status == "incorrect"
        assert [v.status for _, _, v, _ in st.superseded_protocol_verdicts(rid, "kernelbench")] == ["incorrect", "infra_error"]
    # the report shows both tables
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "report", str(db), "--out", str(tmp_path / "rep")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Summary per level, judged by KernelBench's protocol" in md
    assert "| L1 | bench-single-scripted-coder | 2 | 50.0% | 50.0% |" in md and "| L1 | bench-single-scripted-coder | 2 | 50.0% | 0.0% |" in md
    assert "judged by KernelBench&#x27;s protocol" in (tmp_path / "rep" / "report.html").read_text()
