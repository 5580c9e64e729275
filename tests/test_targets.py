"""Training targets (issue 19, item 3) on the CPU:

* a reasoning model's thinking: an OpenAI-compatible server started here returns
  ``reasoning_content``; `kmosaic generate --extra-body ... --enable-thinking` sends the switch
  the vLLM/SGLang way, the store keeps the thinking with each turn, and `kmosaic export`
  keeps it (``--reasoning``) or drops it;
* which assistant replies carry loss (all, progress, final) and how much history a row keeps: the
  labels TRL builds from the rows are exactly the tokens the option names.
"""

import json
import os
import subprocess
import sys

import pytest

datasets = pytest.importorskip("datasets")
pytest.importorskip("trl")

import agent_scripts as S  # noqa: E402
from conftest import DATA, ROOT  # noqa: E402
from kernelmosaic.agent.llm import thinking_body  # noqa: E402
from kernelmosaic.agent.scripted_server import ScriptedServer  # noqa: E402
from kernelmosaic.data import Store  # noqa: E402
from kernelmosaic.train.config import ConfigError  # noqa: E402
from kernelmosaic.train.targets import TargetStats, build_row, prepare, training_template  # noqa: E402
from kernelmosaic.train.tiny import build_tokenizer  # noqa: E402

OK = (DATA / "cpu" / "relu_cc_ok.py").read_text()
THINK_1 = "The reference is a ReLU; a loop with a compare will do."
THINK_2 = "The compile error says the type is wrong; use float."


def _cli(*args, timeout=300):
    # the tasks here are KernelBench's own ReLU: with $KERNELBENCH_DIR set, export would rightly
    # decontaminate them all away (export --kernelbench reads it)
    env = {k: v for k, v in os.environ.items() if k != "KERNELBENCH_DIR"}
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", *args], cwd=ROOT, capture_output=True, text=True,
                       timeout=timeout, env=env)
    assert "Traceback" not in r.stdout + r.stderr, r.stderr[-3000:]
    return r


@pytest.fixture(scope="module")
def thinking_run(tmp_path_factory, cache_dir):
    """generate with thinking on: a broken first reply, then a correct one, each with its thinking."""
    d = tmp_path_factory.mktemp("thinking")
    replies = [{"content": S.BROKEN, "reasoning_content": THINK_1}, {"content": f"```python\n{OK}```",
                                                                      "reasoning_content": THINK_2}]
    with ScriptedServer({"relu": replies}) as srv:
        r = _cli("generate", "--tasks", str(DATA / "tasks" / "relu.py"), "--store", str(d / "run.db"), "--model", "thinker",
                 "--base-url", srv.base_url, "--api-key", "x", "--device", "cpu", "--backend", "cpp", "--no-timing",
                 "--max-repair", "1", "--max-optimize", "0", "--workers", "1", "--no-profile",
                 "--extra-body", '{"top_k": 20, "chat_template_kwargs": {"custom": 1}}', "--enable-thinking")
        requests = list(srv.requests)
    assert r.returncode == 0, r.stdout + r.stderr
    return d, requests


def test_thinking_switch_reaches_the_endpoint_and_the_store_keeps_the_thinking(thinking_run):
    d, requests = thinking_run
    assert len(requests) == 2
    for body in requests:
        # vLLM/SGLang read the switch from chat_template_kwargs; the caller's own keys are kept
        assert body["chat_template_kwargs"] == {"custom": 1, "enable_thinking": True} and body["top_k"] == 20
    with Store(d / "run.db") as st:
        (ep,) = st.episodes(st.run_ids()[0])
        turns = st.turns(ep.episode_id)
    assert [t.status for t in turns] == ["compile_error", "correct"]
    assert [t.reasoning for t in turns] == [THINK_1, THINK_2]
    assert THINK_1 not in turns[0].reply  # apart from the reply


def test_export_keeps_or_drops_the_thinking(thinking_run):
    d, _ = thinking_run
    for keep in (True, False):
        out = d / f"export-{keep}"
        r = _cli("export", "--store", str(d / "run.db"), "--view", "iterative", "--out", str(out), "--val-fraction", "0",
                 "--history", "full", "--reasoning" if keep else "--no-reasoning")
        assert r.returncode == 0, r.stderr
        row = datasets.load_dataset("parquet", data_files=str(out / "train.parquet"), split="train",
                                    cache_dir=str(d / ".hf"))[0]
        asst = [m for m in row["messages"] if m["role"] == "assistant"]
        assert row["assistant_progress"] == [False, True]
        if keep:
            assert [m["reasoning_content"] for m in asst] == [THINK_1, THINK_2]
            assert all(m["reasoning_content"] is None for m in row["messages"] if m["role"] != "assistant")
        else:
            assert all("reasoning_content" not in m for m in row["messages"])
            assert THINK_2 not in json.dumps(row)
    r = _cli("export", "--store", str(d / "run.db"), "--view", "direct", "--out", str(d / "x"), "--history", "full")
    assert r.returncode == 2 and "history applies to the iterative view only" in r.stderr


def test_bad_extra_body_is_refused():
    r = _cli("generate", "--tasks", str(DATA / "tasks" / "relu.py"), "--store", "/tmp/never.db", "--model", "m",
             "--base-url", "http://127.0.0.1:9/v1", "--device", "cpu", "--backend", "cpp", "--extra-body", "[1, 2]")
    assert r.returncode == 2 and "--extra-body must be a JSON object" in r.stderr
    r = _cli("generate", "--tasks", str(DATA / "tasks" / "relu.py"), "--store", "/tmp/never.db", "--model", "m",
             "--base-url", "http://127.0.0.1:9/v1", "--device", "cpu", "--backend", "cpp", "--extra-body", "{top_k")
    assert r.returncode == 2 and "--extra-body is not JSON" in r.stderr
    assert thinking_body(None, None) == {} and thinking_body({"a": 1}, False) == {
        "a": 1, "chat_template_kwargs": {"enable_thinking": False}}


# -- loss per reply and history -------------------------------------------------------------------------------
SYS, TASK = {"role": "system", "content": "You write kernels."}, {"role": "user", "content": "Write relu."}
CHAT = [SYS, TASK,
        {"role": "assistant", "content": "first try"}, {"role": "user", "content": "COMPILE ERROR"},
        {"role": "assistant", "content": "second try"}, {"role": "user", "content": "INCORRECT"},
        {"role": "assistant", "content": "third try", "reasoning_content": "check the sign"}]
FLAGS = [False, True, True]


@pytest.fixture(scope="module")
def tok():
    return build_tokenizer()


def _trained(tok, row) -> str:
    return tok.decode([i for i, m in zip(row["input_ids"], row["assistant_masks"]) if m])


@pytest.mark.parametrize("loss_turns, text", [
    ("all", "first try<|im_end|>second try<|im_end|><think>\ncheck the sign\n</think>\n\nthird try<|im_end|>"),
    ("progress", "second try<|im_end|><think>\ncheck the sign\n</think>\n\nthird try<|im_end|>"),
    ("final", "<think>\ncheck the sign\n</think>\n\nthird try<|im_end|>"),
])
def test_loss_falls_on_the_replies_the_option_names(tok, loss_turns, text):
    row = build_row(tok, training_template(tok), CHAT, FLAGS, loss_turns=loss_turns, history_turns=None,
                    max_length=4096, stats=TargetStats())
    assert _trained(tok, row) == text


def test_all_is_what_trl_masks_and_history_keeps_the_last_turns(tok):
    enc = tok.apply_chat_template(CHAT, tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
    row = build_row(tok, None, CHAT, None, loss_turns="all", history_turns=None, max_length=4096, stats=TargetStats())
    assert row["input_ids"] == enc["input_ids"] and row["assistant_masks"] == enc["assistant_masks"]
    st = TargetStats()
    last = build_row(tok, None, CHAT, FLAGS, loss_turns="all", history_turns=1, max_length=4096, stats=st)
    assert tok.decode(last["input_ids"]) == tok.apply_chat_template([SYS, TASK, CHAT[-1]], tokenize=False)
    assert st.rows_shortened == 1 and st.turns_dropped == 2
    # too long for max_length: the oldest turns go first, and the final reply stays whole
    n = len(row["input_ids"])
    st = TargetStats()
    fit = build_row(tok, None, CHAT, FLAGS, loss_turns="all", history_turns=None, max_length=n - 1, stats=st)
    assert len(fit["input_ids"]) < n and _trained(tok, fit).startswith("second try") and st.turns_dropped == 1
    # a row whose replies all lack loss is left out and counted
    st = TargetStats()
    assert build_row(tok, None, CHAT, [True, False, False], loss_turns="progress", history_turns=1, max_length=4096,
                     stats=st) is None and st.rows_without_loss == 1


def test_trl_builds_its_labels_from_these_masks(tok, tmp_path):
    """The rows go through SFTTrainer's own preparation: the labels it trains on are the chosen replies."""
    from trl import SFTConfig, SFTTrainer

    from kernelmosaic.train.tiny import build_random_model

    ds = datasets.Dataset.from_list([{"messages": CHAT, "assistant_progress": FLAGS}])
    prepared, stats = prepare(ds, tok, loss_turns="progress", history_turns=None, max_length=4096)
    assert stats.loss_replies == 2 and stats.replies == 3
    model = build_random_model({"model_type": "qwen3", "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1,
                                "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 16}, tok)
    trainer = SFTTrainer(model=model, processing_class=tok, train_dataset=prepared,
                         args=SFTConfig(output_dir=str(tmp_path), max_length=4096, packing=False, use_cpu=True,
                                        report_to="none", assistant_only_loss=False))
    labels = trainer.train_dataset[0]["labels"]
    assert tok.decode([x for x in labels if x != -100]) == (
        "second try<|im_end|><think>\ncheck the sign\n</think>\n\nthird try<|im_end|>")
    with pytest.raises(ConfigError, match="assistant_progress"):
        prepare(ds.select_columns(["messages"]), tok, loss_turns="progress", history_turns=None, max_length=4096)


def test_a_template_that_drops_the_thinking_is_refused(tok):
    plain = build_tokenizer()
    plain.chat_template = plain.chat_template.replace(
        "{% if m.get('reasoning_content') %}<think>\n{{ m['reasoning_content'] }}\n</think>\n\n{% endif %}", "")
    assert "reasoning_content" not in plain.chat_template
    ds = datasets.Dataset.from_list([{"messages": CHAT}])
    with pytest.raises(ConfigError, match="does not render it"):
        prepare(ds, plain, loss_turns="all", history_turns=None, max_length=4096)
