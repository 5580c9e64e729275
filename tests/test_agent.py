"""The agent loop end to end on the CPU: the real openai client over real HTTP to a local
scripted server, real verifier workers, real compilers, a real SQLite store."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import agent_scripts as S
from conftest import DATA, ROOT, count_turns
from kernelmosaic.agent.scripted_server import ScriptedServer as FakeOpenAI
from kernelmosaic.agent import Episode, EpisodeConfig, OpenAILLM, ScriptedLLM, extract_candidate, render_feedback
from kernelmosaic.scale import generate
from kernelmosaic.data import Store
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig

FAST_TIMING = TimingConfig(enabled=True, n=5, warmup=1, compile=False)


def relu():
    return load_task(DATA / "tasks" / "relu.py")


# -- parsing and feedback --------------------------------------------------------------------------
def test_extract_last_block_defining_model_new():
    reply = "First the reference:\n```python\nclass Model: pass\n```\nThen mine:\n```python\nclass ModelNew: pass\n```\nAnd a note:\n```bash\nls\n```"
    assert extract_candidate(reply).code.strip() == "class ModelNew: pass"
    assert extract_candidate("<think>```python\nclass ModelNew: draft\n```</think>no code").code is None


@pytest.mark.parametrize("reply,needle", [
    ("just prose", "contains no code"),
    ("```python\nx = 1\n```", "none of the 1 code block"),
    ("```python\nclass ModelNew(nn.Module):\n    def f(self):", "not closed"),
])
def test_reply_without_code_says_what_is_missing(reply, needle):
    p = extract_candidate(reply)
    assert p.code is None and needle in p.problem


def test_feedback_maps_compiler_lines_into_the_candidate():
    code = S.BROKEN.split("```python\n")[1].split("```")[0]
    verdict = {"status": "compile_error", "error": {"kind": "compile", "message": "x",
               "log": "kernel.c: In function 'relu':\nkernel.c:2:55: error: expected ';' before '}' token\n    2 |     for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f\n"}}
    fb = render_feedback(verdict, code)
    assert "COMPILE ERROR" in fb and "expected ';'" in fb
    # the C source starts on candidate.py line 5 (the line after r\"\"\"), so C line 2 is line 6
    assert "[candidate.py line 6]" in fb


# -- whole episodes through real HTTP ----------------------------------------------------------------
def test_episode_repair_then_optimize_over_http(cpu_verifier):
    with FakeOpenAI({"relu": [S.BROKEN, S.WRONG, S.SLOW, S.FAST]}, fail_first=1) as srv:
        policy = OpenAILLM("scripted-coder", base_url=srv.base_url, api_key="test", retries=2)
        cfg = EpisodeConfig(backend="cpp", max_repair=3, max_optimize=1, timing=FAST_TIMING)
        res = Episode(relu(), policy, cpu_verifier, cfg).run()
        n_requests = len(srv.requests)
    st = [t.verdict.status for t in res.turns]
    assert st == ["compile_error", "incorrect", "correct", "correct"], [t.feedback for t in res.turns]
    assert [t.stage for t in res.turns] == ["implement", "repair", "repair", "optimize"]
    assert n_requests == 5  # one 429, retried by the client with backoff
    # each prompt answers the previous verdict, with the guidance it was shown
    t1, t2, t3 = res.turns[1], res.turns[2], res.turns[3]
    assert "COMPILE ERROR" in t1.messages[-1]["content"] and "expected ';'" in t1.messages[-1]["content"]
    assert t1.guidance_ids and all(f"[{g}]" in t1.messages[-1]["content"] for g in t1.guidance_ids)
    assert "INCORRECT" in t2.messages[-1]["content"] and "max abs error" in t2.messages[-1]["content"]
    assert "Best correct kernel so far" in t3.messages[-1]["content"]
    assert all(t.usage["total_tokens"] > 0 for t in res.turns)
    # the faster kernel became the best one
    assert res.correct and res.best_turn == 3
    assert res.turns[3].verdict.timing.candidate_ms < res.turns[2].verdict.timing.candidate_ms


def test_the_task_prompt_states_the_rules(cpu_verifier):
    """Issue 19, item 4: the first prompt says what the verifier checks: the tolerances (the very
    numbers the comparison uses), the precision bound under strict, the shape variants, and, on a
    GPU, the machine it is timed on."""
    import torch

    from kernelmosaic.agent.prompts import task_prompt
    from kernelmosaic.verify.compare import default_tolerances
    from kernelmosaic.verify.verdict import Target

    h200 = Target(name="NVIDIA H200", sms=132, bandwidth_gbs=4213.3, peak_tflops=756.1)
    strict = task_prompt(relu(), "nvrtc", "strict", target=h200)
    t32, t16 = default_tolerances(torch.float32), default_tolerances(torch.bfloat16)
    assert f"atol {t32['atol']:g} and rtol {t32['rtol']:g} elementwise, relative norm error {t32['rel_norm']:g}" in strict
    assert f"atol {t16['atol']:g} and rtol {t16['rtol']:g}" in strict
    assert "16x the reference's own error" in strict and "no float16, bfloat16 or plain TF32" in strict
    assert "3xTF32, is judged by its error" in strict  # the tensor-core guidance's split is not forbidden
    assert "the fewest bytes moved over its bandwidth" in strict and "FLOPs over peak" not in strict
    assert "other sizes" in strict and "2039" in strict
    assert "NVIDIA H200, 132 SMs, 4,213 GB/s measured copy bandwidth, 756 TFLOP/s measured bf16 matrix peak" in strict
    assert "speed of light" in strict
    kb = task_prompt(relu(), "cpp", "kernelbench", shape_variants=False, timed=False)
    assert "float64" not in kb and "other sizes" not in kb and "Target GPU" not in kb and "speed of light" not in kb
    assert "other torch ops are allowed" in kb
    # an episode on the CPU names no GPU; its prompt carries the rest
    ep = Episode(relu(), ScriptedLLM([S.FAST]), cpu_verifier, EpisodeConfig(backend="cpp", timing=FAST_TIMING))
    assert ep.target() is None and cpu_verifier.target() is None
    first = ep.prompt([])[1][1]["content"]
    assert "How the verifier judges your file" in first and "Target GPU" not in first


def test_broken_optimization_never_replaces_the_best(cpu_verifier):
    policy = ScriptedLLM([S.FAST, S.BROKEN, S.NO_CODE])
    cfg = EpisodeConfig(backend="cpp", max_repair=1, max_optimize=2, timing=FAST_TIMING)
    res = Episode(relu(), policy, cpu_verifier, cfg).run()
    assert [t.verdict.status for t in res.turns] == ["correct", "compile_error", "invalid_candidate"]
    assert res.best_turn == 0 and res.best_code == res.turns[0].code
    # the prompt after the failed optimization shows the best kernel again
    assert "failed, so the best kernel so far is unchanged" in res.turns[2].messages[-1]["content"]
    assert "```python" in res.turns[2].messages[-1]["content"]


def test_repair_budget_and_no_code_turns(cpu_verifier):
    cfg = EpisodeConfig(backend="cpp", max_repair=2, max_optimize=1, timing=FAST_TIMING)
    res = Episode(relu(), ScriptedLLM(lambda m: S.NO_CODE), cpu_verifier, cfg).run()
    assert len(res.turns) == 3 and not res.correct and res.stopped == "repair_budget"
    assert all(t.verdict.status == "invalid_candidate" and t.code is None for t in res.turns)
    assert "contains no code" in res.turns[1].messages[-1]["content"]


def test_token_budget_stops_the_episode(cpu_verifier):
    cfg = EpisodeConfig(backend="cpp", max_repair=5, max_tokens=10, timing=FAST_TIMING)
    res = Episode(relu(), ScriptedLLM(lambda m: S.NO_CODE), cpu_verifier, cfg).run()
    assert res.stopped == "token_budget" and len(res.turns) == 1


def test_context_stays_bounded(cpu_verifier):
    cfg = EpisodeConfig(backend="cpp", max_repair=5, max_optimize=0, context_turns=2, timing=FAST_TIMING)
    res = Episode(relu(), ScriptedLLM(lambda m: S.NO_CODE), cpu_verifier, cfg).run()
    last = res.turns[-1].messages
    assert any("Summary of earlier attempts" in m["content"] for m in last)
    assert sum(m["role"] == "assistant" for m in last) <= 3  # 2 recent turns + the summary acknowledgement


def test_triton_backend_episode(cpu_verifier):
    cfg = EpisodeConfig(backend="triton", max_repair=2, max_optimize=0, timing=TimingConfig(enabled=False))
    res = Episode(relu(), ScriptedLLM([S.NO_CODE, S.TRITON_OK]), cpu_verifier, cfg).run()
    assert [t.verdict.status for t in res.turns] == ["invalid_candidate", "correct"]


def test_generate_records_every_turn_in_the_store(cpu_verifier, tmp_path):
    tasks = [relu(), load_task(DATA / "tasks" / "scale_add.py")]
    scale_ok = (DATA / "cpu" / "scale_add_cc_ok.py").read_text()
    scripts = {"relu": S.by_conversation, "scale_add": [f"```python\n{scale_ok}```", S.NO_CODE]}
    with FakeOpenAI(scripts) as srv, Store(tmp_path / "run.db") as store:
        policy = OpenAILLM("scripted-coder", base_url=srv.base_url, concurrency=2)
        cfg = EpisodeConfig(backend="cpp", max_repair=3, max_optimize=1, timing=FAST_TIMING)
        rid = generate(tasks, policy, cpu_verifier, store, cfg, concurrency=2)
        eps = {e.task_key: e for e in store.episodes(rid)}
        assert set(eps) == {"relu", "scale_add"} and all(e.status == "done" for e in eps.values())
        assert eps["relu"].correct and eps["relu"].n_turns == 4
        assert eps["scale_add"].correct and eps["scale_add"].best_turn == 0
        turns = store.turns(eps["relu"].episode_id)
        assert [t.verdict.status for t in turns] == ["compile_error", "incorrect", "correct", "correct"]
        assert turns[1].guidance_ids and turns[1].feedback
        # a second generate over the same run finds nothing left to do
        n_req = len(srv.requests)
        generate(tasks, policy, cpu_verifier, store, cfg, run_id=rid)
        assert len(srv.requests) == n_req


def test_sigkill_and_resume_loses_and_duplicates_nothing(tmp_path, cache_dir):
    """`kmosaic generate` killed with SIGKILL mid-run, then resumed with the same run id."""
    tdir = tmp_path / "tasks"
    tdir.mkdir()
    for name in ("relu", "scale_add"):
        (tdir / f"{name}.py").write_text((DATA / "tasks" / f"{name}.py").read_text())
    scale_ok = (DATA / "cpu" / "scale_add_cc_ok.py").read_text()
    scripts = {"relu": S.by_conversation, "scale_add": lambda m: f"```python\n{scale_ok}```"}
    db = tmp_path / "run.db"
    env = {**os.environ, "KMOSAIC_CACHE_DIR": str(cache_dir)}
    with FakeOpenAI(scripts, delay_s=0.4) as srv:
        cmd = [sys.executable, "-m", "kernelmosaic.cli", "generate", "--tasks", str(tdir), "--store", str(db),
               "--model", "scripted-coder", "--base-url", srv.base_url, "--device", "cpu", "--backend", "cpp",
               "--run-id", "r1", "--concurrency", "1", "--max-repair", "3", "--max-optimize", "1",
               "--no-compile-baseline", "--workers", "1"]
        p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 240
        while count_turns(db) < 2 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.2)
        assert p.poll() is None, p.stdout.read().decode()[-3000:]
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        with Store(db) as s:
            before = {(t.episode_id, t.idx): t.reply for e in s.episodes("r1") for t in s.turns(e.episode_id)}
        assert len(before) >= 2
        r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    with Store(db) as s:
        eps = s.episodes("r1")
        assert sorted(e.task_key for e in eps) == ["relu", "scale_add"]  # each exactly once
        assert all(e.status == "done" and e.correct for e in eps)
        for e in eps:
            idx = [t.idx for t in s.turns(e.episode_id)]
            assert idx == list(range(len(idx))) and len(idx) == e.n_turns
        after = {(t.episode_id, t.idx): t.reply for e in eps for t in s.turns(e.episode_id)}
        assert all(after[k] == v for k, v in before.items())  # nothing committed was lost or rewritten
        relu_turns = s.turns(next(e.episode_id for e in eps if e.task_key == "relu"))
        assert [t.verdict.status for t in relu_turns] == ["compile_error", "incorrect", "correct", "correct"]
        assert s.integrity_check() == "ok"


def test_solve_and_generate_and_mine_cli(tmp_path, cache_dir):
    env = {**os.environ, "KMOSAIC_CACHE_DIR": str(cache_dir)}
    with FakeOpenAI({"relu": S.by_conversation}) as srv:
        base = ["--model", "scripted-coder", "--base-url", srv.base_url, "--device", "cpu", "--backend", "cpp",
                "--max-repair", "3", "--max-optimize", "1", "--no-compile-baseline"]
        r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "solve", str(DATA / "tasks" / "relu.py"), *base,
                            "--out", str(tmp_path / "sol")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "turn 0 implement" in r.stdout and "compile_error" in r.stdout and "guidance:" in r.stdout
        traj = json.loads((tmp_path / "sol" / "trajectory.json").read_text())
        assert traj["model"] == "scripted-coder" and traj["correct"] and len(traj["turns"]) == 4
        for t in traj["turns"]:
            assert {"stage", "prompt", "reply", "code", "verdict", "guidance_ids"} <= set(t)
        assert (tmp_path / "sol" / "best.py").read_text() == traj["turns"][traj["best_turn"]]["code"]
        db = tmp_path / "g.db"
        r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "generate", "--tasks", str(DATA / "tasks" / "relu.py"),
                            "--store", str(db), *base, "--workers", "1"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        assert '"correct": 1' in r.stdout
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "guidance", "mine", "--store", str(db), "--out", str(tmp_path / "p.json")],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "repair pairs" in r.stdout and json.loads((tmp_path / "p.json").read_text())["proposals"] is not None


def test_cli_reports_an_unreachable_endpoint_without_traceback(tmp_path, cache_dir):
    env = {**os.environ, "KMOSAIC_CACHE_DIR": str(cache_dir)}
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "solve", str(DATA / "tasks" / "relu.py"), "--model", "m",
                        "--base-url", "http://127.0.0.1:9/v1", "--device", "cpu", "--retries", "0", "--out", str(tmp_path / "s")],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    assert "cannot reach the endpoint" in r.stderr and "Traceback" not in r.stderr + r.stdout


def test_export_cli_on_a_generated_store(cpu_verifier, tmp_path):
    """generate -> kmosaic export: the three views load with `datasets`."""
    pytest.importorskip("datasets")
    import datasets

    with FakeOpenAI({"relu": S.by_conversation, "scale_add": [f"```python\n{(DATA / 'cpu' / 'scale_add_cc_ok.py').read_text()}```"]}) as srv, \
            Store(tmp_path / "run.db") as store:
        policy = OpenAILLM("scripted-coder", base_url=srv.base_url)
        cfg = EpisodeConfig(backend="cpp", max_repair=3, max_optimize=1, timing=FAST_TIMING)
        generate([relu(), load_task(DATA / "tasks" / "scale_add.py")], policy, cpu_verifier, store, cfg)
    for view in ("iterative", "direct", "steps"):
        out = tmp_path / view
        r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "export", "--store", str(tmp_path / "run.db"), "--view", view,
                            "--out", str(out), "--val-fraction", "0.5"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                           # its relu task is KernelBench's own: with $KERNELBENCH_DIR set, export would drop it
                           env={k: v for k, v in os.environ.items() if k != "KERNELBENCH_DIR"})
        assert r.returncode == 0, r.stdout + r.stderr
        files = {s: str(out / f"{s}.parquet") for s in ("train", "validation") if (out / f"{s}.parquet").exists()}
        ds = datasets.load_dataset("parquet", data_files=files)
        rows = sum(len(ds[s]) for s in ds)
        assert rows >= 1 and "messages" in ds[next(iter(ds))].column_names
        assert (out / "README.md").exists()
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "export", "--store", str(tmp_path / "run.db"), "--view", "nope",
                        "--out", str(tmp_path / "x")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    # the same store through kmosaic report
    pytest.importorskip("matplotlib")
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "report", str(tmp_path / "run.db"), "--out", str(tmp_path / "rep")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "relu" in html and "scale_add" in html and "data:image/png;base64," in html


def test_generate_with_an_unreachable_endpoint_fails_cleanly(tmp_path, cache_dir):
    env = {**os.environ, "KMOSAIC_CACHE_DIR": str(cache_dir)}
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "generate", "--tasks", str(DATA / "tasks" / "relu.py"),
                        "--store", str(tmp_path / "f.db"), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                        "--device", "cpu", "--retries", "0", "--workers", "1", "--run-id", "f1"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
    assert "cannot reach the endpoint" in r.stdout and "rerun with --run-id f1" in r.stderr
    with Store(tmp_path / "f.db") as s:
        assert [e.status for e in s.episodes("f1")] == ["failed"]
