"""Any coding agent as the policy: the MCP server driven by the `mcp` SDK's own client (over
stdio, and over streamable HTTP on 127.0.0.1), and the `kmosaic episode` step CLI, both on the
CPU backend with real verifier workers, real gcc builds and a real SQLite store."""

import json
import os
import socket
import subprocess
import sys
import time

import pytest

import agent_scripts as S
from conftest import DATA, ROOT
from kernelmosaic.agent import extract_candidate
from kernelmosaic.data import Store

mcp = pytest.importorskip("mcp")
anyio = pytest.importorskip("anyio")

BROKEN = extract_candidate(S.BROKEN).code  # missing semicolon: compile_error
WRONG = extract_candidate(S.WRONG).code  # leaky relu: incorrect
FAST = extract_candidate(S.FAST).code  # correct
SCALE_OK = (DATA / "cpu" / "scale_add_cc_ok.py").read_text()
# few timed calls and no torch.compile baseline: these tests are about the protocol
FAST_FLAGS = ["--device", "cpu", "--backend", "cpp", "--no-compile-baseline", "--timing-runs", "3", "--trials", "2",
              "--max-repair", "2", "--max-optimize", "1"]


def _env(cache_dir):
    return {**os.environ, "KMOSAIC_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}


@pytest.fixture()
def taskset(tmp_path):
    """A one-task set, as `kmosaic tasks generate` writes them."""
    from kernelmosaic.curate.taskset import TaskSet

    ts = TaskSet.create(tmp_path / "sets" / "tiny", {"name": "tiny"})
    ts.add("relu", (DATA / "tasks" / "relu.py").read_text(), {"category": "activation", "dtypes": ["fp32"],
                                                              "status": "auto"})
    return tmp_path / "sets"


# -- MCP over stdio ---------------------------------------------------------------------------------------
async def _session(server_args, env, fn):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.types import Implementation

    params = StdioServerParameters(command=sys.executable, args=["-m", "kernelmosaic.cli", "mcp", *server_args],
                                   env=env, cwd=str(ROOT))
    with open(os.devnull, "w") as devnull:
        async with stdio_client(params, errlog=devnull) as (read, write):
            async with ClientSession(read, write, client_info=Implementation(name="pytest-agent", version="9.9")) as s:
                await s.initialize()
                return await fn(s)


def _text(r) -> str:
    return "\n".join(c.text for c in r.content if getattr(c, "type", "") == "text")


def test_mcp_stdio_episode_with_restart_and_store(tmp_path, cache_dir, taskset):
    db = tmp_path / "agent.db"
    args = ["--store", str(db), "--tasksets", str(taskset), *FAST_FLAGS, "--workers", "1"]
    env = {k: v for k, v in _env(cache_dir).items() if k != "KERNELBENCH_DIR"}  # only the given task set
    seen = {}

    async def first(s):
        tools = {t.name for t in (await s.list_tools()).tools}
        assert {"list_tasks", "read_task", "start_episode", "submit", "get_best", "finish_episode",
                "episode_status", "list_episodes"} <= tools
        r = await s.call_tool("list_tasks", {"query": "activation"})
        assert not r.is_error and [t["id"] for t in r.structured_content["tasks"]] == ["tiny/relu"]
        r = await s.call_tool("read_task", {"task": "tiny/relu"})
        assert "class Model" in r.structured_content["source"]
        r = await s.call_tool("start_episode", {"task": "tiny/unknown"})
        assert r.is_error and "no task 'unknown'" in _text(r)
        r = await s.call_tool("start_episode", {"task": "tiny/relu"})
        assert not r.is_error, _text(r)
        seen["eid"] = eid = r.structured_content["episode_id"]
        seen["prompt0"] = r.structured_content["prompt"]
        assert "Backend `cpp`" in _text(r) and eid in _text(r)
        r = await s.call_tool("submit", {"episode_id": eid, "candidate": "  \n"})
        assert r.is_error and "empty" in _text(r)
        r = await s.call_tool("submit", {"episode_id": eid, "candidate": BROKEN})
        assert not r.is_error, _text(r)
        d = r.structured_content
        assert d["status"] == "compile_error" and d["next_stage"] == "repair" and d["turn"] == 0
        assert "COMPILE ERROR" in _text(r) and "compile.c-syntax" in d["guidance_ids"]
        assert d["verdict"]["status"] == "compile_error" and d["feedback"] in d["next_prompt"]
        seen["prompt1"], seen["gids1"] = d["next_prompt"], d["guidance_ids"]

    anyio.run(_session, args, env, first)

    async def second(s):  # a fresh server process on the same store: the episode resumes
        eid = seen["eid"]
        r = await s.call_tool("list_episodes", {})
        assert [e["episode_id"] for e in r.structured_content["episodes"]] == [eid]
        r = await s.call_tool("episode_status", {"episode_id": eid})
        st = r.structured_content
        assert st["turns"] == 1 and st["next_stage"] == "repair" and st["next_prompt"] == seen["prompt1"]
        r = await s.call_tool("get_best", {"episode_id": eid})
        assert r.structured_content["correct"] is False
        r = await s.call_tool("submit", {"episode_id": eid, "candidate": f"Fixed.\n\n```python\n{FAST}```\n"})
        d = r.structured_content
        assert d["status"] == "correct" and d["next_stage"] == "optimize" and d["best"]["turn"] == 1
        assert "Best correct kernel so far" in d["next_prompt"]
        r = await s.call_tool("get_best", {"episode_id": eid})
        assert r.structured_content["code"] == FAST and "```python" in _text(r)
        r = await s.call_tool("finish_episode", {"episode_id": eid})
        assert r.structured_content["status"] == "done" and not r.structured_content["already_finished"]
        r = await s.call_tool("submit", {"episode_id": eid, "candidate": FAST})
        assert r.is_error and "finished" in _text(r)
        r = await s.call_tool("submit", {"episode_id": "no-such-episode", "candidate": FAST})
        assert r.is_error and "unknown episode" in _text(r)

    anyio.run(_session, args, env, second)

    with Store(db) as st:
        assert st.integrity_check() == "ok"
        (rid,) = st.run_ids()
        assert st.get_run(rid).model == "external:pytest-agent/9.9"
        (ep,) = st.episodes(rid)
        assert ep.status == "done" and ep.correct and ep.best_turn == 1 and ep.n_turns == 2
        turns = st.turns(ep.episode_id)
        assert [t.stage for t in turns] == ["implement", "repair"]
        assert [t.verdict.status for t in turns] == ["compile_error", "correct"]
        # each turn records the prompt the client was shown and the guidance that was in it
        assert turns[0].messages[-1]["content"] == seen["prompt0"]
        assert turns[1].messages[-1]["content"] == seen["prompt1"] and turns[1].guidance_ids == seen["gids1"]
        assert turns[0].code == BROKEN and turns[1].code == FAST and turns[1].reply.startswith("Fixed.")
        assert all(t.meta["llm"] == "external:pytest-agent/9.9" and t.meta["interface"] == "mcp" for t in turns)
        assert ep.meta["external"]["config"]["max_repair"] == 2


# -- MCP over streamable HTTP -------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_mcp_streamable_http(tmp_path, cache_dir):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.types import Implementation

    db, port = tmp_path / "http.db", _free_port()
    p = subprocess.Popen([sys.executable, "-m", "kernelmosaic.cli", "mcp", "--transport", "http", "--port", str(port),
                          "--store", str(db), *FAST_FLAGS, "--workers", "1"], cwd=ROOT, env=_env(cache_dir),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert p.poll() is None, p.stderr.read().decode()[-2000:]
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)

        async def drive():
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
                async with ClientSession(read, write, client_info=Implementation(name="http-agent", version="1.0")) as s:
                    await s.initialize()
                    r = await s.call_tool("start_episode", {"task": str(DATA / "tasks" / "scale_add.py")})
                    eid = r.structured_content["episode_id"]
                    r = await s.call_tool("submit", {"episode_id": eid, "candidate": SCALE_OK})
                    return eid, r.structured_content

        eid, d = anyio.run(drive)
        assert d["status"] == "correct" and d["next_stage"] == "optimize"
    finally:
        p.terminate()
        p.wait(timeout=30)
    with Store(db) as st:
        assert st.get_run(st.run_ids()[0]).model == "external:http-agent/1.0"
        assert [t.verdict.status for t in st.turns(eid)] == ["correct"]


# -- the step CLI -------------------------------------------------------------------------------------------
def _km(args, cache_dir, check=True):
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", *args], cwd=ROOT, env=_env(cache_dir),
                       capture_output=True, text=True, timeout=600)
    assert "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    if check:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


def _inproc(args, code=0):
    """A command that verifies nothing, run in this process through typer's CliRunner."""
    from typer.testing import CliRunner

    from kernelmosaic.cli import app

    r = CliRunner().invoke(app, args)
    assert r.exit_code == code, (args, r.stdout, r.stderr, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception  # never a traceback
    return r


def test_step_cli_batch_resume_and_bad_input(tmp_path, cache_dir):
    """Commands that verify run as real subprocesses (each a new process: the episodes resume
    from the store every time); the others in-process."""
    db, work = tmp_path / "steps.db", tmp_path / "work"
    common = ["--store", str(db)]
    folders = {}
    for task in ("relu", "scale_add"):
        r = _inproc(["episode", "start", str(DATA / "tasks" / f"{task}.py"), *common, "--agent", "shell-agent/2",
                     "--dir", str(work), *FAST_FLAGS, "--json"])
        d = json.loads(r.stdout)
        folders[task] = d["dir"]
        assert (work / os.path.basename(d["dir"]) / "prompt.md").read_text().startswith("You are an expert")
        assert (work / os.path.basename(d["dir"]) / "task.md").read_text().startswith("You are an expert")
    # round 1: both pending submissions verified in one call (one verify_many)
    (work / os.path.basename(folders["relu"]) / "candidate.py").write_text(WRONG)
    (work / os.path.basename(folders["scale_add"]) / "candidate.py").write_text(SCALE_OK)
    r = _km(["episode", "submit", *common, "--all", "--dir", str(work), "--device", "cpu", "--workers", "2", "--json"],
            cache_dir)
    res = {x["episode_id"].split("/")[-2]: x for x in json.loads(r.stdout)}
    assert res["relu"]["status"] == "incorrect" and res["scale_add"]["status"] == "correct"
    relu_dir = work / os.path.basename(folders["relu"])
    assert not (relu_dir / "candidate.py").exists() and (relu_dir / "turn-0.py").read_text() == WRONG
    assert "INCORRECT" in (relu_dir / "prompt.md").read_text()
    # the first prompt and each turn's verdict stay in the folder for whoever takes it over
    assert "INCORRECT" in (relu_dir / "feedback-0.md").read_text()
    assert (relu_dir / "task.md").read_text().startswith("You are an expert")
    # nothing pending now
    r = _inproc(["episode", "submit", *common, "--all", "--dir", str(work), "--device", "cpu"], code=2)
    assert "no pending submissions" in r.stderr
    # round 2 (a new process: the episode resumes from the store), human output
    (relu_dir / "candidate.py").write_text(FAST)
    r = _km(["episode", "submit", *common, str(relu_dir), "--device", "cpu", "--workers", "1"], cache_dir)
    assert "turn 1 (repair): CORRECT" in r.stdout and "Best correct kernel so far" in r.stdout
    assert (relu_dir / "best.py").read_text() == FAST
    assert "INCORRECT" in (relu_dir / "feedback-0.md").read_text()
    assert "turn 1 (repair): CORRECT" in (relu_dir / "feedback-1.md").read_text()
    st = json.loads(_inproc(["episode", "status", *common, str(relu_dir), "--json"]).stdout)
    assert st["turns"] == 2 and st["next_stage"] == "optimize" and st["budgets"]["optimize_left"] == 1
    _inproc(["episode", "best", *common, res["relu"]["episode_id"], "--out", str(tmp_path / "best.py")])
    assert (tmp_path / "best.py").read_text() == FAST
    assert "2 episodes" in _inproc(["episode", "status", *common]).stdout

    # bad input: exit 2, one line, nothing recorded
    relu_id = res["relu"]["episode_id"]
    (tmp_path / "empty.py").write_text("   \n")
    bad = [
        (["episode", "submit", *common, "nope", "-f", str(tmp_path / "best.py")], "unknown episode"),
        (["episode", "submit", *common, relu_id, "-f", str(tmp_path / "missing.py")], "no such file"),
        (["episode", "submit", *common, relu_id, "-f", str(tmp_path / "empty.py")], "empty"),
        (["episode", "submit", *common, relu_id, str(relu_dir), "-f", str(tmp_path / "best.py")], "exactly one"),
        (["episode", "status", "--store", str(tmp_path / "none.db"), relu_id], "no such store"),
        (["episode", "start", "L9/1", *common, "--agent", "a", "--device", "cpu"], "KernelBench"),
        (["episode", "start", "relu.py", *common, "--agent", "a", "--device", "cpu", "--backend", "nvrtc"],
         "needs --device cuda"),
    ]
    for args, needle in bad:
        r = _inproc([*args, "--device", "cpu"] if args[1] == "submit" else args, code=2)
        assert needle in r.stderr, (args, r.stderr)
    assert json.loads(_inproc(["episode", "finish", *common, str(relu_dir), "--json"]).stdout)["status"] == "done"
    assert (relu_dir / "best.py").read_text() == FAST
    r = _inproc(["episode", "submit", *common, relu_id, "-f", str(tmp_path / "best.py"), "--device", "cpu"], code=2)
    assert "finished" in r.stderr
    with Store(db) as s:
        (rid,) = s.run_ids()
        assert s.get_run(rid).model == "external:shell-agent/2"
        eps = {e.task_key: e for e in s.episodes(rid)}
        relu = s.turns(eps["relu"].episode_id)
        assert [t.verdict.status for t in relu] == ["incorrect", "correct"]  # bad input left no turn
        assert relu[0].meta.get("batch") == 2 and relu[1].meta.get("batch") is None
        assert eps["relu"].status == "done" and eps["relu"].correct and eps["scale_add"].status == "running"
        assert s.integrity_check() == "ok"


# -- task sources (no verifier started) ---------------------------------------------------------------------
def test_task_sources_the_repo_sets_and_kernelbench(tmp_path, kernelbench_dir):
    from kernelmosaic.agent.external import ExternalError, Workbench

    with Workbench(tmp_path / "t.db", kernelbench=str(kernelbench_dir), tasksets=[ROOT / "tasksets"]) as wb:
        names = {s["name"] for s in wb.sources()}
        assert {"mosaic-v1", "kernelbench"} <= names
        r = wb.list_tasks(source="mosaic-v1", query="rms_norm", limit=5)
        assert r["total"] >= 1 and len(r["tasks"]) <= 5 and all("rms_norm" in t["id"] or "rms_norm" in t["ops"] for t in r["tasks"])
        t = wb.read_task(r["tasks"][0]["id"])
        assert "class Model" in t["source"] and t["metadata"]["category"]
        kb = wb.list_tasks(source="kernelbench", limit=500)
        assert {"L1/19", "L2/1"} <= {x["id"] for x in kb["tasks"]} and kb["total"] > 200
        assert wb.read_task("L1/19")["key"] == wb.read_task("L1/19_ReLU")["key"] == "L1/19_ReLU"
        for bad, needle in [("mosaic-v1/nope", "no task 'nope'"), ("L1/99999", "no KernelBench level 1 problem"),
                            ("", "no task given")]:
            with pytest.raises(ExternalError, match=needle):
                wb.read_task(bad)
        with pytest.raises(ExternalError, match="unknown task source"):
            wb.list_tasks(source="nope")
        assert wb.verifier._v is None  # listing and reading never started the verifier


def test_two_starts_racing_for_one_sample_get_two_episodes(tmp_path, monkeypatch):
    """Two processes that start the same task at once both pick the next free sample; the
    second must not be handed the first one's episode."""
    from kernelmosaic.agent.external import Workbench

    task = str(DATA / "tasks" / "relu.py")
    with Workbench(tmp_path / "r.db") as first, Workbench(tmp_path / "r.db") as second:
        a = first.start(task, "racer/1")
        monkeypatch.setattr(second.store, "episodes", lambda *args, **kw: [])  # it has not seen `a` yet
        b = second.start(task, "racer/1")
        assert a["episode_id"] != b["episode_id"]
        assert [e["turns"] for e in first.episodes()] == [0, 0]
        assert first.store.get_episode(a["episode_id"]).sample == 0
        assert first.store.get_episode(b["episode_id"]).sample == 1


def test_kernelbench_episodes_never_enter_a_training_export(tmp_path, kernelbench_dir):
    """An agent's episode on a KernelBench problem is a benchmark measurement: export leaves it
    out (and says so) even when no KernelBench directory is given for decontamination."""
    pytest.importorskip("pyarrow")
    from kernelmosaic.agent.external import Workbench
    from kernelmosaic.data import TurnRecord
    from kernelmosaic.data.export import export

    store = tmp_path / "bench.db"
    with Workbench(store, kernelbench=str(kernelbench_dir)) as wb:
        started = [wb.start("L1/19", "tester/1"), wb.start(str(DATA / "tasks" / "relu.py"), "tester/1")]
        for r in started:
            v = {"status": "correct", "backend": "cpp", "policy": "strict", "task": r["task"], "device": "cpu",
                 "correct": True, "compiled": True,
                 "timing": {"candidate_ms": 1.0, "eager_ms": 2.0, "speedup_eager": 2.0, "n": 3}}
            wb.store.add_turn(TurnRecord(episode_id=r["episode_id"], idx=0, stage="implement",
                                         messages=[{"role": "user", "content": r["prompt"]}], reply=FAST, code=FAST,
                                         verdict=v, feedback="correct"))
            wb.finish(r["episode_id"])
    res = export(store, "iterative", tmp_path / "out", val_fraction=0.0)
    assert res.n_filtered["kernelbench_episode"] == 1
    assert res.n_rows == 1
    import pyarrow.parquet as pq

    tasks = pq.read_table(res.paths["train"]).column("task").to_pylist()
    assert tasks == [started[1]["task"]] and "L1/19_ReLU" not in tasks
    assert "bench only" in (tmp_path / "out" / "README.md").read_text()


def test_a_batch_cut_short_keeps_the_verdicts_it_reached(tmp_path, cache_dir, monkeypatch):
    """Each verdict of a batch is recorded as it comes: when the batch stops after its first
    verdict (here the caller is interrupted), that turn is in the store and the other episode
    still takes its submission."""
    from kernelmosaic.agent.external import Settings, Workbench
    from kernelmosaic.verify import TimingConfig

    monkeypatch.setenv("KMOSAIC_CACHE_DIR", str(cache_dir))
    st = Settings(device="cpu", backend="cpp", trials=2, max_repair=1, max_optimize=0,
                  timing=TimingConfig(enabled=False), profile=False)
    task = str(DATA / "tasks" / "relu.py")
    seen = []

    def interrupted(i, r):
        seen.append(r)
        raise KeyboardInterrupt

    with Workbench(tmp_path / "b.db", st, verifier_options={"workers": 1}) as wb:
        a, b = wb.start(task, "batcher/1"), wb.start(task, "batcher/1")
        with pytest.raises(KeyboardInterrupt):
            wb.submit_many([(a["episode_id"], FAST), (b["episode_id"], WRONG)], on_result=interrupted)
        assert len(seen) == 1 and seen[0]["status"] in ("correct", "incorrect")
        done = seen[0]["episode_id"]
        other = b["episode_id"] if done == a["episode_id"] else a["episode_id"]
        assert [e["turns"] for e in sorted(wb.episodes(), key=lambda e: e["episode_id"] != done)] == [1, 0]
        r = wb.submit(other, FAST if other == a["episode_id"] else WRONG)
        assert r["turn"] == 0
