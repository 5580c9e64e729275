"""`kmosaic ablate` end to end on the CPU (configs/ablate/tiny-cpu.yaml): a scripted generate run
(real HTTP, real verifier) -> matched direct and iterative exports -> three arms of a tiny
random-init Qwen3 trained on the same steps -> each benched with the model it produced through the
transformers LLM on a small KernelBench-format folder -> ablation.md and ablation.json. The
models are random, so the bench finds no kernel: the test checks that every number in the report
is the one the stores and the training runs hold, not what the numbers are."""

import json
import subprocess
import sys

import pytest

pytest.importorskip("trl")
pytest.importorskip("peft")

import agent_scripts as S  # noqa: E402
from conftest import DATA, ROOT  # noqa: E402
from kernelmosaic.ablate import AblateError, Problem, bootstrap, load_config  # noqa: E402
from kernelmosaic.agent import EpisodeConfig, OpenAILLM  # noqa: E402
from kernelmosaic.agent.scripted_server import ScriptedServer  # noqa: E402
from kernelmosaic.bench.metrics import compute_metrics  # noqa: E402
from kernelmosaic.data import Store  # noqa: E402
from kernelmosaic.scale import generate  # noqa: E402
from kernelmosaic.task import load_task  # noqa: E402
from kernelmosaic.verify import TimingConfig  # noqa: E402

CONFIG = ROOT / "configs" / "ablate" / "tiny-cpu.yaml"


@pytest.fixture(scope="module")
def store(cpu_verifier, tmp_path_factory):
    """relu: compile error, wrong, then correct and an optimize turn; scale_add: correct at once."""
    root = tmp_path_factory.mktemp("ablate-store")
    scale_ok = (DATA / "cpu" / "scale_add_cc_ok.py").read_text()
    with ScriptedServer({"relu": S.by_conversation, "scale_add": [f"```python\n{scale_ok}```"]}) as srv, \
            Store(root / "run.db") as st:
        cfg = EpisodeConfig(backend="cpp", max_repair=3, max_optimize=1, timing=TimingConfig(enabled=True, n=3, warmup=1,
                                                                                              compile=False))
        generate([load_task(DATA / "tasks" / "relu.py"), load_task(DATA / "tasks" / "scale_add.py")],
                 OpenAILLM("scripted-coder", base_url=srv.base_url), cpu_verifier, st, cfg)
    return root / "run.db"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    """Two levels in KernelBench's layout; L1/1 has the relu task's source (a training task)."""
    d = tmp_path_factory.mktemp("ablate-kb")
    (d / "level1").mkdir()
    (d / "level2").mkdir()
    (d / "level1" / "1_ReLU.py").write_text((DATA / "tasks" / "relu.py").read_text())
    (d / "level1" / "2_ScaleAdd.py").write_text("# another problem\n" + (DATA / "tasks" / "scale_add.py").read_text())
    (d / "level2" / "1_ReLU_again.py").write_text("# the same graph, another problem\n" + (DATA / "tasks" / "relu.py").read_text())
    return d


@pytest.fixture(scope="module")
def ablation(store, kb, tmp_path_factory):
    out = tmp_path_factory.mktemp("ablate-run") / "out"
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "ablate", str(CONFIG), "--set", f"store={store}",
                        "--set", f"bench.kernelbench={kb}", "--set", f"out={out}", "--set", "bench.protocol=kernelbench"],
                       cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert "Traceback" not in r.stdout + r.stderr, r.stderr[-4000:]
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    return out, r


def test_the_report_holds_what_the_runs_recorded(ablation, store):
    out, r = ablation
    rep = json.loads((out / "ablation.json").read_text())
    md = (out / "ablation.md").read_text()
    assert rep["random_init"] and "These numbers test the pipeline" in md
    # matched data: both views from the same two episodes, split alike
    assert rep["data"]["episodes"] == 2 and rep["data"]["rows"]["direct"] == rep["data"]["rows"]["iterative"]
    import pyarrow.parquet as pq
    d = pq.read_table(out / "data" / "direct" / "train.parquet").to_pylist()
    it = pq.read_table(out / "data" / "iterative" / "train.parquet").to_pylist()
    assert sorted(x["episode_id"] for x in d) == sorted(x["episode_id"] for x in it)
    relu = next(x for x in it if x["task"] == "relu")
    # history full: the relu turns up to the best one verbatim, each reply followed by the next prompt
    # (the optimize turn is the best only when it timed faster, so the row has 3 or 4 turns)
    n = relu["best_turn"] + 1
    assert n in (3, 4) and [m["role"] for m in relu["messages"]][2:] == ["assistant", "user"] * (n - 1) + ["assistant"]
    assert relu["assistant_progress"] == [False] + [True] * (n - 1)  # a compile error, then steps forward
    # the budget: the same steps for every arm, and the tokens each one saw as the trainer counted them
    assert rep["budget"] == {"match": "steps", "steps": 4, "tokens": None, "epochs": None}
    arms = rep["arms"]
    assert set(arms) == {"direct", "iterative", "iterative-final"}
    for name, a in arms.items():
        summary = json.loads((out / "train" / name / "ablate_arm.json").read_text())
        assert a["global_step"] == summary["global_step"] == 4 and a["tokens_seen"] == summary["tokens_seen"] > 0
        assert a["epoch"]["rows"] == 2
    # iterative rows are longer; loss on the final reply only carries fewer tokens than on all replies
    assert arms["iterative"]["epoch"]["tokens"] > arms["direct"]["epoch"]["tokens"]
    # the whole relu episode is longer than max_length (4096 tokens of the toy tokenizer): its oldest turns went,
    # where truncation would have cut the final reply
    it_ep, fin_ep = arms["iterative"]["epoch"], arms["iterative-final"]["epoch"]
    exported = sum(len(x["assistant_progress"]) for x in it)
    assert it_ep["rows_over_length"] == 0 and it_ep["tokens"] <= 2 * 4096
    assert it_ep["replies"] == exported - it_ep["turns_dropped"] and it_ep["rows_shortened"] <= 2
    assert it_ep["loss_replies"] == it_ep["replies"] >= 2  # all: every reply kept carries loss
    assert fin_ep["loss_replies"] == 2 and fin_ep["replies"] == 2  # the last turn of each row, with loss
    assert fin_ep["turns_dropped"] == exported - 2
    assert fin_ep["loss_tokens"] <= it_ep["loss_tokens"]
    if it_ep["replies"] > 2:
        assert fin_ep["loss_tokens"] < it_ep["loss_tokens"]
    # every arm benched the same three problems with its own model; the numbers are the store's
    for name, a in arms.items():
        m = compute_metrics(a["bench_store"], a["run_id"])
        assert {t.task for t in m.tasks} == {"L1/1_ReLU", "L1/2_ScaleAdd", "L2/1_ReLU_again"}
        with Store(a["bench_store"]) as st:
            assert st.get_run(a["run_id"]).model == a["model_dir"]
        res = rep["results"]["all"]["arms"][name]
        assert res["correct_pct"] == m.overall.correct_pct
        assert res["fast_p"] == m.overall.fast_p_eager[1.0]
        for lv, label in ((1, "L1"), (2, "L2")):
            assert rep["results"][label]["arms"][name]["correct_pct"] == m.levels[lv].correct_pct
        # the same turns judged by KernelBench's evaluator too (bench.protocol), reported beside
        # (random-init models write no code block, so every turn keeps its own no-code verdict)
        kb_m = compute_metrics(a["bench_store"], a["run_id"], protocol="kernelbench")
        assert rep["results_under_protocol"]["results"]["all"]["arms"][name]["correct_pct"] == kb_m.overall.correct_pct
        with Store(a["bench_store"]) as st:
            coded = sum(bool(t.code) for e in st.episodes(a["run_id"]) for t in st.turns(e.episode_id))
            assert len(st.protocol_verdicts(a["run_id"], "kernelbench")) == coded
    assert rep["results_under_protocol"]["protocol"] == "kernelbench" and "## Results under the kernelbench protocol" in md
    assert rep["bench"]["problems_also_trained_on"] == ["L1/1_ReLU"]  # same source as the relu task
    assert "### L1 (2 problems)" in md and "### L2 (1 problems)" in md and "iterative-final" in md


def test_a_rerun_reuses_every_arm(ablation, store, kb):
    out, _ = ablation
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "ablate", str(CONFIG), "--set", f"store={store}",
                        "--set", f"bench.kernelbench={kb}", "--set", f"out={out}", "--set", "bench.protocol=kernelbench"],
                       cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.count("reused") == 3
    assert all(a["reused"] for a in json.loads((out / "ablation.json").read_text())["arms"].values())


def test_bootstrap_intervals():
    # 10 problems; the second arm solves 3 more of them, the same way in every resample
    a = [Problem(correct=i < 4, speedup=2.0 if i < 4 else None) for i in range(10)]
    b = [Problem(correct=i < 7, speedup=1.0 if i < 7 else None) for i in range(10)]
    r = bootstrap({"direct": a, "it": b}, "direct", resamples=2000, seed=1)
    assert r["arms"]["direct"]["correct_pct"] == 40.0 and r["arms"]["it"]["correct_pct"] == 70.0
    lo, hi = r["arms"]["direct"]["correct_pct_ci"]
    assert 0 <= lo < 40 < hi <= 100
    assert r["arms"]["direct"]["fast_p"] == 0.4 and r["arms"]["it"]["fast_p"] == 0.0  # speedup 1.0 is not > 1
    assert r["arms"]["direct"]["geomean"] == pytest.approx(2.0) and r["arms"]["direct"]["geomean_ci"] == pytest.approx([2.0, 2.0])
    v = r["vs_baseline"]["it"]
    assert v["correct_pct_diff"] == pytest.approx(30.0)
    lo, hi = v["correct_pct_diff_ci"]
    assert 0 <= lo <= 30 <= hi  # paired: a resample never shows the second arm behind
    assert v["geomean_ratio"] == pytest.approx(0.5)
    assert bootstrap({"direct": a, "it": b}, "direct", resamples=2000, seed=1) == r  # seeded
    with pytest.raises(ValueError, match="same problems"):
        bootstrap({"direct": a, "it": b[:5]}, "direct")


def test_config_errors(tmp_path, kb):
    cases = [
        ({"budget.match": "flops"}, "budget.match must be steps or tokens"),
        ({"budget.steps": 0}, "budget.steps"),
        ({"arms": [{"name": "direct", "view": "direct"}]}, "at least one iterative arm"),
        ({"arms": [{"name": "a", "view": "iterative", "loss_turns": "some"}, {"name": "d", "view": "direct"}]},
         "loss_turns must be all, progress or final"),
        ({"train.set.sft.max_steps": 3}, "set by the ablation"),
        ({"bench.samples": 2}, "temperature"),
        ({"export.history": "most"}, "export.history"),
        ({"bench.protocol": "kb"}, "bench.protocol must be kernelmosaic or kernelbench"),
    ]
    for over, msg in cases:
        with pytest.raises(AblateError, match=msg):
            load_config(CONFIG, over)
    for over, msg in [((f"store={tmp_path / 'none.db'}", f"bench.kernelbench={kb}"), "no such store"),
                      ((f"bench.kernelbench={kb}", "bench.problems=50-60"), "no problems match"),
                      ((f"bench.kernelbench={kb}", "budget.steps=-1"), "budget.steps")]:
        r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "ablate", str(CONFIG), "--set", f"out={tmp_path / 'o'}",
                            *[x for o in over for x in ("--set", o)]], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and msg in r.stderr and "Traceback" not in r.stderr, (over, r.stderr)


def test_a_token_budget_stops_training_at_the_first_step_that_reaches_it(ablation, tmp_path):
    """budget.match: tokens - the arm stops at the first optimizer step whose input tokens reach the budget."""
    from kernelmosaic.ablate.run import _train_config, epoch_tokens, train_arm

    out, _ = ablation
    cfg = load_config(CONFIG, {"out": str(tmp_path), "budget.match": "tokens", "budget.epochs": 1.5,
                               "budget.max_steps": 50})
    arm = cfg.arms[1]  # iterative, loss on all replies
    tcfg = _train_config(cfg, arm, out / "data", tmp_path / "train" / arm.name)
    per_epoch = epoch_tokens(tcfg)["tokens"]
    budget = int(1.5 * per_epoch)
    summary, reused = train_arm(cfg, arm, tcfg, budget, "fp")
    assert not reused and summary["tokens_seen"] >= budget
    # a step is one batch of 2 rows: the arm stopped within one step of the budget, well before max_steps
    assert summary["tokens_seen"] - budget < per_epoch and summary["global_step"] < 50
    assert train_arm(cfg, arm, tcfg, budget, "fp")[1]  # the same fingerprint: reused, not trained again
