"""The dataset exporter: views, filters, split by task, KernelBench decontamination, the card."""

import hashlib
import textwrap

import pytest

pytest.importorskip("pyarrow")
datasets = pytest.importorskip("datasets")

from kernelmosaic.data import Store, TurnRecord, export_dataset, find_contamination, split_tasks
from kernelmosaic.task.decontam import THRESHOLD
from kernelmosaic.data.export import export

SYSTEM = "You write fast, correct CUDA kernels for PyTorch programs."
H100 = {"gpu": "NVIDIA H100 80GB HBM3", "torch": "2.5.1+cu124", "cuda": "12.4", "driver": "550.54"}
A100 = {"gpu": "NVIDIA A100-SXM4-80GB", "torch": "2.4.0+cu121", "cuda": "12.1", "driver": "535.1"}

KB_FOO = '''\
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes a scaled cumulative product along a dimension."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumprod(x, dim=self.dim) * 0.5


batch_size = 128
input_shape = (4000,)
dim = 1


def get_inputs():
    return [torch.randn(batch_size, *input_shape)]


def get_init_inputs():
    return [dim]
'''
# the same program, reformatted, recommented and with another docstring: an exact match after normalization
KB_FOO_TASK = '''\
import torch
import torch.nn as nn
# a task taken from KernelBench
class Model(nn.Module):
    """Scaled cumprod."""
    def __init__(self, dim):
        super().__init__()
        self.dim = dim   # the scan dimension
    def forward(self, x):
        return torch.cumprod(x, dim=self.dim) * 0.5
batch_size = 128
input_shape = (4000,)
dim = 1
def get_inputs():
    return [torch.randn(batch_size, *input_shape)]
def get_init_inputs():
    return [dim]
'''
KB_BAR = '''\
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features, eps):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features, eps=eps)

    def forward(self, x):
        x = self.linear(x)
        x = self.norm(x)
        return torch.nn.functional.gelu(x) + 1.0


batch_size = 256
in_features = 1024
out_features = 2048
eps = 1e-5


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, eps]
'''
# a near copy: other sizes and a renamed attribute (similar, not equal)
KB_BAR_TASK = KB_BAR.replace("batch_size = 256", "batch_size = 128").replace("self.norm", "self.ln")


def task_source(name, op):
    return textwrap.dedent(f'''\
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            """{name}: y = {op}(x)"""

            def forward(self, x):
                return {op}(x)


        def get_inputs():
            return [torch.randn({len(name) * 97}, {len(op) * 13}, device="cuda")]


        def get_init_inputs():
            return []
        ''')


def verdict(status, task, speedup=None, env=H100):
    v = {"status": status, "backend": "cuda", "policy": "strict", "task": task, "device": "cuda:0",
         "correct": status == "correct", "compiled": status not in ("compile_error", "invalid_candidate"),
         "seeds": [0, 1], "tolerances": {"atol": 1e-5, "rtol": 1e-5},
         "error": None if status == "correct" else {"kind": status, "message": f"{status} in kernel", "log": ""},
         "mismatch": None, "rejections": [], "timing": None, "phases_s": {}, "env": dict(env), "notes": []}
    if speedup is not None:
        v["timing"] = {"candidate_ms": 1.0 / speedup, "eager_ms": 1.0, "compile_ms": 0.8,
                       "speedup_eager": speedup, "speedup_compile": 0.8 * speedup, "cv": 0.01, "n": 20,
                       "baseline": {"source": "cache", "timed_at": "2026-12-01T00:00:00Z", "device_name": "NVIDIA H100",
                                    "torch": "2.11.0", "eager_spread": 0.03, "steady": True, "cached": True}}
    return v


def code_for(task, i):
    return f"# {task} attempt {i}\nimport torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x  # {i}\n"


def messages_for(task, turns, stage, k=2):
    """The context Episode._messages builds: system, task prompt, summary of older turns,
    the last k turns (code + feedback), then the repair/optimize prompt."""
    msgs = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Write ModelNew for task {task}."}]
    if not turns:
        return msgs
    older, recent = turns[:-k], turns[-k:]
    if older:
        lines = [f"- turn {t.idx} ({t.stage}): {t.status}" for t in older]
        msgs.append({"role": "user", "content": "Summary of earlier attempts:\n" + "\n".join(lines)})
        msgs.append({"role": "assistant", "content": "Understood; I will not repeat those mistakes."})
    for j, t in enumerate(recent):
        msgs.append({"role": "assistant", "content": f"```python\n{t.code.rstrip()}\n```"})
        if j < len(recent) - 1:
            msgs.append({"role": "user", "content": t.feedback})
    prompt = "Fix the kernel." if stage == "repair" else "Best correct kernel so far: make it faster."
    msgs.append({"role": "user", "content": f"{turns[-1].feedback}\n\n{prompt}"})
    return msgs


def record(store, run, task, plan, sample=0, env=H100):
    """plan: [(stage, status, speedup)]; records the episode the way the runner does."""
    ep, _ = store.begin_episode(run, task, sample)
    turns = []
    for i, (stage, status, speedup) in enumerate(plan):
        code = code_for(task, i)
        t = TurnRecord(
            episode_id=ep.episode_id, idx=i, stage=stage, messages=messages_for(task, turns, stage),
            reply=f"Attempt {i} for {task}:\n```python\n{code}```", code=code,
            verdict=verdict(status, task, speedup, env), feedback=f"FEEDBACK {task} turn {i}: {status.upper()}",
            usage={"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}, latency_s=1.0, verify_s=0.5)
        store.add_turn(t)
        turns.append(t)
    best = None
    for i, t in enumerate(turns):
        if t.status == "correct" and (best is None or t.verdict.timing.candidate_ms < turns[best].verdict.timing.candidate_ms):
            best = i
    store.finish_episode(ep.episode_id, "done", best_turn=best, best_code=turns[best].code if best is not None else None,
                         best_speedup=turns[best].verdict.timing.speedup_eager if best is not None else None,
                         correct=best is not None, wall_s=3.0)
    return ep.episode_id, turns


I, R, O = "implement", "repair", "optimize"
PLANS = {  # task -> turns; (best turn, best speedup_eager)
    "level1/relu": [(I, "compile_error", None), (R, "incorrect", None), (R, "correct", 1.2), (O, "correct", 2.0)],  # 3, 2.0
    "level1/gelu": [(I, "incorrect", None), (R, "correct", 1.5), (O, "correct", 1.1)],  # 1, 1.5
    "level1/softmax": [(I, "correct", 0.8), (O, "correct", 3.0), (O, "compile_error", None)],  # 1, 3.0
    "level1/matmul": [(I, "compile_error", None), (R, "compile_error", None), (R, "runtime_error", None),
                      (R, "correct", 1.0)],  # 3, 1.0
    "level1/never": [(I, "compile_error", None), (R, "incorrect", None), (R, "incorrect", None)],  # never correct
    "level1/kb_foo": [(I, "compile_error", None), (R, "correct", 1.3)],  # == KernelBench level1/1_Foo.py
    "level2/kb_bar": [(I, "correct", 1.1)],  # near copy of KernelBench level2/7_Bar.py
}
SOURCES = {"level1/kb_foo": KB_FOO_TASK, "level2/kb_bar": KB_BAR_TASK}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("export")
    kb = root / "kernelbench"
    (kb / "level1").mkdir(parents=True)
    (kb / "level2").mkdir()
    (kb / "level1" / "1_Foo.py").write_text(KB_FOO)
    (kb / "level1" / "2_Conv.py").write_text(KB_BAR.replace("nn.Linear", "nn.Conv1d").replace("gelu", "silu"))
    (kb / "level2" / "7_Bar.py").write_text(KB_BAR)
    path = root / "store.db"
    eids = {}
    with Store(path) as store:
        run_a = store.start_run("coder-a-7b", {"temperature": 0.7}, task_set="kernelbench-l1", run_id="run-a")
        for task, plan in PLANS.items():
            src = SOURCES.get(task) or task_source(task.split("/")[1], f"torch.{task.split('/')[1]}")
            store.add_task(task, hashlib.sha256(src.encode()).hexdigest(), src, level=int(task[5]))
            eids[task], _ = record(store, run_a, task, plan)
        # a second model on one task: the task's episodes must share a split
        run_b = store.start_run("coder-b-1.5b", {}, task_set="smoke", run_id="run-b")
        eids["run-b/relu"], _ = record(store, run_b, "level1/relu", [(I, "correct", 1.4), (O, "correct", 1.6)], env=A100)
        # an interrupted episode is not exported
        store.begin_episode(run_b, "level1/gelu", 0)
    return {"root": root, "store": path, "kb": kb, "eids": eids}


def load(res):
    ds = datasets.load_dataset("parquet", data_files={"train": str(res.paths["train"]),
                                                      "validation": str(res.paths["validation"])},
                               cache_dir=str(res.paths["train"].parent / ".hf-cache"))
    return ds


def rows(ds):
    return [r for s in ("train", "validation") for r in ds[s]]


def go(env, view, name, **kw):
    kw.setdefault("val_fraction", 0.3)
    return export(env["store"], view, env["root"] / name, kernelbench_dir=kw.pop("kb", env["kb"]), **kw)


# -- views --------------------------------------------------------------------------------------------
def test_iterative_view(env):
    res = go(env, "iterative", "it")
    ds = load(res)
    assert set(ds["train"].column_names) >= {"messages", "task", "episode_id", "run_id", "model", "n_turns",
                                             "best_turn", "speedup_eager", "speedup_compile", "backend", "final_code"}
    got = {r["episode_id"]: r for r in rows(ds)}
    # 9 episodes seen; one running, one never correct, two KernelBench copies
    assert res.n_episodes_seen == 9 and len(got) == 5 == sum(res.counts.values())
    assert res.n_filtered == {"unfinished": 1, "not_verified": 1, "decontaminated": 2}
    assert {r["task"] for r in got.values()} == {"level1/relu", "level1/gelu", "level1/softmax", "level1/matmul"}

    relu = got[env["eids"]["level1/relu"]]
    assert relu["best_turn"] == 3 and relu["n_turns"] == 4 and relu["speedup_eager"] == pytest.approx(2.0)
    assert relu["model"] == "coder-a-7b" and relu["backend"] == "cuda"
    # every speedup carries where its baseline came from
    assert relu["baseline"] == {"source": "cache", "timed_at": "2026-12-01T00:00:00Z", "device_name": "NVIDIA H100",
                                "torch": "2.11.0", "eager_spread": 0.03, "steady": True}
    assert relu["final_code"] == code_for("level1/relu", 3)
    m = relu["messages"]
    assert m[0] == {"role": "system", "content": SYSTEM} and m[1]["role"] == "user"
    assert m[-1] == {"role": "assistant", "content": f"Attempt 3 for level1/relu:\n```python\n{code_for('level1/relu', 3)}```"}
    assert m[-2]["role"] == "user" and "FEEDBACK level1/relu turn 2" in m[-2]["content"]  # the prompt it answered
    users = [x["content"] for x in m if x["role"] == "user"]
    assert any("Summary of earlier attempts" in u for u in users)
    assert "FEEDBACK level1/relu turn 1: INCORRECT" in users  # feedback between the kept turns
    assert [x["role"] for x in m[-5:]] == ["assistant", "user", "assistant", "user", "assistant"]

    gelu = got[env["eids"]["level1/gelu"]]  # the slower optimization is not the best turn
    assert gelu["best_turn"] == 1 and gelu["speedup_eager"] == pytest.approx(1.5)
    assert gelu["messages"][-1]["content"].startswith("Attempt 1 for level1/gelu")


def test_direct_view(env):
    res = go(env, "direct", "direct")
    got = rows(load(res))
    assert len(got) == 5
    for r in got:
        m = r["messages"]
        assert [x["role"] for x in m] == ["system", "user", "assistant"]
        assert m[1]["content"] == f"Write ModelNew for task {r['task']}."
        assert m[2]["content"] == f"```python\n{r['final_code'].rstrip()}\n```"
        assert r["final_code"] == code_for(r["task"], r["best_turn"])


def test_steps_view(env):
    res = go(env, "steps", "steps")
    ds = load(res)
    assert set(ds["train"].column_names) >= {"messages", "kind", "task", "episode_id", "turn", "before_status",
                                             "after_status", "speedup_eager"}
    got = {(r["episode_id"], r["turn"]): r for r in rows(ds)}
    e = env["eids"]
    expect = {
        (e["level1/relu"], 2): ("repair", "incorrect", "correct"),
        (e["level1/relu"], 3): ("optimize", "correct", "correct"),
        (e["level1/gelu"], 1): ("repair", "incorrect", "correct"),
        (e["level1/softmax"], 1): ("optimize", "correct", "correct"),
        (e["level1/matmul"], 3): ("repair", "runtime_error", "correct"),
        (e["run-b/relu"], 1): ("optimize", "correct", "correct"),
    }
    assert {k: (r["kind"], r["before_status"], r["after_status"]) for k, r in got.items()} == expect
    assert res.kinds == {"optimize": 3, "repair": 3}
    r = got[(e["level1/softmax"], 1)]
    assert r["speedup_eager"] == pytest.approx(3.0) and r["baseline"]["source"] == "cache"
    assert r["messages"][-1]["content"].startswith("Attempt 1 for level1/softmax")
    assert "FEEDBACK level1/softmax turn 0" in r["messages"][-2]["content"]

    # unverified pairs too: compile_error -> a later failure
    res = go(env, "steps", "steps-all", verified_only=False)
    got = {(r["episode_id"], r["turn"]): r for r in rows(load(res))}
    assert len(got) == 9
    assert got[(e["level1/relu"], 1)]["after_status"] == "incorrect"
    assert got[(e["level1/matmul"], 2)]["before_status"] == "compile_error"
    assert got[(e["level1/never"], 1)]["kind"] == "repair"

    # stages keeps only after-turns of those stages
    res = go(env, "steps", "steps-opt", stages=["optimize"])
    assert res.kinds == {"optimize": 3} and sum(res.counts.values()) == 3
    assert res.n_filtered["steps_stage"] == 3


# -- split ------------------------------------------------------------------------------------------------
def test_split_is_by_task_and_deterministic(env):
    res = go(env, "iterative", "split")
    ds = load(res)
    train, val = set(ds["train"]["task"]), set(ds["validation"]["task"])
    assert train and val and not train & val
    assert train == set(res.split_tasks["train"]) and val == set(res.split_tasks["validation"])
    relu = [r for r in rows(ds) if r["task"] == "level1/relu"]
    assert len(relu) == 2 and len({r["run_id"] for r in relu}) == 2  # both models' episodes, one split
    again = go(env, "iterative", "split2")
    assert again.split_tasks == res.split_tasks
    # a task's split does not depend on which other tasks are exported
    tasks = [f"t{i}" for i in range(200)]
    a, b = split_tasks(tasks, 0.2, seed=1), split_tasks(tasks[:100], 0.2, seed=1)
    assert all(a[t] == b[t] for t in tasks[:100])
    assert 20 < sum(v == "validation" for v in a.values()) < 60
    assert split_tasks(tasks, 0.2, seed=2) != a


# -- decontamination --------------------------------------------------------------------------------
def test_decontamination_drops_and_reports(env):
    res = go(env, "iterative", "decon")
    by_task = {d["task"]: d for d in res.dropped}
    assert set(by_task) == {"level1/kb_foo", "level2/kb_bar"}
    assert by_task["level1/kb_foo"]["match"] == "exact" and by_task["level1/kb_foo"]["score"] == 1.0
    assert by_task["level1/kb_foo"]["kernelbench_file"] == "level1/1_Foo.py"
    # a renamed copy scores like the original under the curation rule (names are blanked)
    assert by_task["level2/kb_bar"]["score"] >= THRESHOLD
    assert by_task["level2/kb_bar"]["kernelbench_file"] == "level2/7_Bar.py"
    card = res.paths["card"].read_text()
    assert "level1/kb_foo" in card and "level1/1_Foo.py" in card and "level2/7_Bar.py" in card
    all_tasks = set(res.split_tasks["train"]) | set(res.split_tasks["validation"])
    assert not all_tasks & set(by_task)

    # without a KernelBench directory they stay
    res = go(env, "iterative", "no-decon", kb=None)
    assert not res.dropped and sum(res.counts.values()) == 7
    assert "level1/kb_foo" in set(res.split_tasks["train"]) | set(res.split_tasks["validation"])


def test_export_and_curation_share_one_decontamination(tmp_path):
    """The export drops what `kmosaic tasks decontam` drops: the same function decides."""
    from kernelmosaic.task.decontam import decontaminate, index_sources

    kb = tmp_path / "kb"
    (kb / "level1").mkdir(parents=True)
    (kb / "level1" / "1_Foo.py").write_text(KB_FOO)
    (kb / "level1" / "7_Bar.py").write_text(KB_BAR)
    sources = {"x": KB_BAR_TASK, "y": task_source("relu", "torch.relu"), "z": "def f(:\n  # broken",
               "foo": KB_FOO_TASK}
    hits = find_contamination(sources, kb)
    assert [(h.task, h.problem) for h in hits] == [("foo", "level1/1_Foo.py"), ("x", "level1/7_Bar.py")]
    assert hits[0].exact and hits[0].to_dict()["match"] == "exact"
    rows = decontaminate(sorted(sources.items()), index_sources([("level1/1_Foo.py", KB_FOO), ("level1/7_Bar.py", KB_BAR)]))
    assert {r["name"] for r in rows if r["dropped"]} == {h.task for h in hits}


# -- filters ------------------------------------------------------------------------------------------
def test_filters_change_counts(env):
    res = go(env, "iterative", "minspeed", min_speedup=1.5)
    assert sum(res.counts.values()) == 4 and res.n_filtered["min_speedup"] == 3  # matmul 1.0, kb_foo 1.3, kb_bar 1.1
    res = go(env, "iterative", "maxturns", max_turns=2)
    assert sum(res.counts.values()) == 3 and res.n_filtered["max_turns"] == 2  # relu (run-a), matmul
    res = go(env, "iterative", "unverified", verified_only=False)
    got = rows(load(res))
    assert len(got) == 6
    never = [r for r in got if r["task"] == "level1/never"][0]
    assert never["best_turn"] == 2 and never["status"] == "incorrect" and never["speedup_eager"] is None
    assert go(env, "direct", "unverified-direct", verified_only=False).counts == res.counts
    res = go(env, "iterative", "run-b", run_ids=["run-b"])
    assert res.n_episodes_seen == 2 and sum(res.counts.values()) == 1


# -- the card -----------------------------------------------------------------------------------------
def test_dataset_card(env):
    res = go(env, "steps", "card", card_info={"pretty_name": "KM steps test"})
    card = res.paths["card"].read_text()
    head = card.split("---")[1]
    for needle in ("configs:", "path: train.parquet", "path: validation.parquet", "- text-generation", "license:"):
        assert needle in head
    for needle in ("KM steps test", "NVIDIA H100 80GB HBM3", "2.5.1+cu124", "NVIDIA A100-SXM4-80GB", "2.4.0+cu121",
                   "coder-a-7b", "coder-b-1.5b", "kernelbench-l1", "smoke", "MIT", "Apache-2.0", "before_status",
                   '"val_fraction": 0.3', "optimize", "repair"):
        assert needle in card, needle
    yaml = pytest.importorskip("yaml")
    meta = yaml.safe_load(head)
    assert meta["configs"][0]["data_files"][0] == {"split": "train", "path": "train.parquet"}
    assert meta["task_categories"] == ["text-generation"]


def test_card_licence_is_the_users_and_names_the_llms(env, monkeypatch):
    """`kmosaic export --license` sets the card's licence field; the card and the command warn that
    the teacher model's terms may apply, naming the LLMs that wrote the data."""
    monkeypatch.delenv("KERNELBENCH_DIR", raising=False)  # no decontamination here: every run stays
    from typer.testing import CliRunner

    from kernelmosaic.cli import app

    out = env["root"] / "licensed"
    r = CliRunner().invoke(app, ["export", "--store", str(env["store"]), "--view", "direct", "--out", str(out),
                                 "--license", "cc-by-4.0", "--val-fraction", "0.3"])
    assert r.exit_code == 0, r.output
    assert "a teacher model's terms of use may" in " ".join(r.output.split()) and "cc-by-4.0" in r.output
    card = (out / "README.md").read_text()
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load(card.split("---")[1])["license"] == "cc-by-4.0"
    assert "set by whoever ran it" not in card and "by whoever ran it (`kmosaic export --license`)" in card
    warn = card[card.index("**Warning: a teacher model's terms may apply.**"):]
    assert "`coder-a-7b`" in warn and "`coder-b-1.5b`" in warn
    assert "| LLM (runs.model) | runs |" in card
    # without --license: the project's licence, and the card says how to set it
    res = go(env, "direct", "default-licence")
    card = res.paths["card"].read_text()
    assert "license: apache-2.0" in card and "`kmosaic export --license` sets it" in card


# -- errors ------------------------------------------------------------------------------------------
def test_errors_are_clear(env, tmp_path):
    with pytest.raises(ValueError, match="unknown view 'chat'.*iterative, direct, steps"):
        export(env["store"], "chat", tmp_path / "x")
    with pytest.raises(ValueError, match="no such store"):
        export(tmp_path / "missing.db", "iterative", tmp_path / "x")
    assert not (tmp_path / "missing.db").exists()  # not created by the attempt
    with pytest.raises(ValueError, match=r"empty.*min_speedup.*: 7"):
        go(env, "iterative", "empty", min_speedup=100)
    with pytest.raises(ValueError, match="unknown run id"):
        go(env, "iterative", "x", run_ids=["nope"])
    with pytest.raises(ValueError, match="unknown stage"):
        go(env, "steps", "x", stages=["polish"])
    with pytest.raises(ValueError, match="steps view only"):
        go(env, "direct", "x", stages=["repair"])
    with pytest.raises(ValueError, match="no .py problem files"):
        go(env, "iterative", "x", kb=tmp_path)
    assert export_dataset is export


def test_empty_validation_split_is_not_written(env):
    out = env["root"] / "noval"
    out.mkdir()
    (out / "validation.parquet").write_text("stale")
    res = go(env, "direct", "noval", val_fraction=0.0)
    assert res.counts == {"train": 5, "validation": 0} and "validation" not in res.paths
    assert not (out / "validation.parquet").exists()
    ds = datasets.load_dataset("parquet", data_files={"train": str(res.paths["train"])}, cache_dir=str(out / ".hf-cache"))
    assert ds["train"].num_rows == 5
    card = res.paths["card"].read_text()
    assert "path: validation.parquet" not in card and "Empty split(s), not written: validation" in card
