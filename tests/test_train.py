"""SFT training on the CPU: a scripted run -> the three export views -> TRL SFTTrainer with LoRA on
a tiny random-init Qwen3 (configs/train/tiny-qwen-cpu.yaml) -> the adapter and the merged model
through TransformersLLM -> resume from a checkpoint. Nothing is downloaded."""

import dataclasses
import json
import subprocess
import sys

import pytest

datasets = pytest.importorskip("datasets")
pytest.importorskip("trl")
pytest.importorskip("peft")

import agent_scripts as S  # noqa: E402
from conftest import DATA, ROOT  # noqa: E402
from kernelmosaic.agent import EpisodeConfig, OpenAILLM, SamplingConfig, TransformersLLM  # noqa: E402
from kernelmosaic.scale import generate  # noqa: E402
from kernelmosaic.agent.scripted_server import ScriptedServer  # noqa: E402
from kernelmosaic.data import Store  # noqa: E402
from kernelmosaic.data.export import export  # noqa: E402
from kernelmosaic.task import load_task  # noqa: E402
from kernelmosaic.train import ConfigError, decide_packing, load_config, train  # noqa: E402
from kernelmosaic.train.sft import _fla_available, count_over_length  # noqa: E402
from kernelmosaic.verify import TimingConfig  # noqa: E402

CONFIG = ROOT / "configs" / "train" / "tiny-qwen-cpu.yaml"
TINY = {"model_type": "qwen3", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16}


@pytest.fixture(scope="module")
def exports(cpu_verifier, tmp_path_factory):
    """A scripted generate run (real HTTP, real verifier) exported in all three views."""
    root = tmp_path_factory.mktemp("train-data")
    scale_ok = (DATA / "cpu" / "scale_add_cc_ok.py").read_text()
    with ScriptedServer({"relu": S.by_conversation, "scale_add": [f"```python\n{scale_ok}```"]}) as srv, \
            Store(root / "run.db") as store:
        policy = OpenAILLM("scripted-coder", base_url=srv.base_url)
        cfg = EpisodeConfig(backend="cpp", max_repair=3, max_optimize=1,
                            timing=TimingConfig(enabled=True, n=5, warmup=1, compile=False))
        generate([load_task(DATA / "tasks" / "relu.py"), load_task(DATA / "tasks" / "scale_add.py")], policy,
                 cpu_verifier, store, cfg)
    return {view: export(root / "run.db", view, root / view, val_fraction=0.5) for view in ("iterative", "direct", "steps")}


@pytest.fixture(scope="module")
def trained(exports, tmp_path_factory):
    out = tmp_path_factory.mktemp("train-run") / "tiny"
    cfg = load_config(CONFIG, {"data.path": str(exports["iterative"].paths["train"].parent), "output_dir": str(out),
                               "sft.max_steps": 12, "sft.save_steps": 6, "sft.eval_steps": 6, "sft.logging_steps": 1,
                               "sft.learning_rate": 1e-2, "sft.warmup_steps": 0})
    return cfg, train(cfg)


def test_views_load_and_mask_only_assistant_tokens(exports):
    from kernelmosaic.train.tiny import build_tokenizer

    tok = build_tokenizer()
    for view, res in exports.items():
        ds = datasets.load_dataset("parquet", data_files={k: str(v) for k, v in res.paths.items() if k != "card"},
                                   cache_dir=str(res.paths["card"].parent / ".hf"))
        rows = [r for split in ds for r in ds[split]]
        assert rows and all(r["messages"][-1]["role"] == "assistant" for r in rows), view
        msgs = rows[0]["messages"]
        enc = tok.apply_chat_template(msgs, tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
        ids, mask = enc["input_ids"], enc["assistant_masks"]
        trained_text = tok.decode([i for i, m in zip(ids, mask) if m])
        # exactly the assistant replies, each with its end-of-turn token (so the model learns to stop)
        replies = [m["content"] for m in msgs if m["role"] == "assistant"]
        assert trained_text == "".join(r + "<|im_end|>" for r in replies), view
        assert "<|im_start|>user" not in trained_text
    ds = datasets.load_dataset("parquet", data_files=str(exports["iterative"].paths["train"]), split="train",
                               cache_dir=str(exports["iterative"].paths["card"].parent / ".hf"))
    longest = max(len(tok.apply_chat_template(m, tokenize=True, return_dict=True)["input_ids"]) for m in ds["messages"])
    assert count_over_length(ds, tok, longest) == 0 and count_over_length(ds, tok, longest - 1) >= 1


def test_lora_training_loss_falls_on_a_repeated_batch(trained):
    cfg, res = trained
    assert res.packing and res.attn_implementation == "sdpa" and res.n_truncated == 0
    losses = [h["loss"] for h in res.log_history if "loss" in h]
    assert len(losses) == 12
    # one training row, so every step sees the same packed batch: the loss must fall steadily
    assert losses[-1] < losses[0] - 0.2 and sum(losses[-3:]) < sum(losses[:3]) - 0.6, losses
    evals = [h["eval_loss"] for h in res.log_history if "eval_loss" in h]
    assert evals and all(e == e for e in evals)  # evaluation ran on the held-out task
    summary = json.loads((res.output_dir / "train_summary.json").read_text())
    assert summary["merged_dir"] and summary["metrics"]["train_loss"] > 0
    assert list(res.output_dir.glob("runs/*/events.out.tfevents.*")), "no TensorBoard log"
    assert sorted(p.name for p in res.output_dir.glob("checkpoint-*")) == ["checkpoint-12", "checkpoint-6"]


def test_adapter_and_merged_model_generate_through_the_transformers_policy(trained):
    import torch

    cfg, res = trained
    assert (res.final_dir / "adapter_config.json").is_file()
    adapter_cfg = json.loads((res.final_dir / "adapter_config.json").read_text())
    assert adapter_cfg["base_model_name_or_path"] == str(res.output_dir / "base")
    greedy = SamplingConfig(temperature=0.0, max_tokens=8)
    with_adapter = TransformersLLM(adapter_cfg["base_model_name_or_path"], adapter=str(res.final_dir),
                                      sampling=greedy, device="cpu")
    merged = TransformersLLM(str(res.merged_dir), sampling=greedy, device="cpu")
    base = TransformersLLM(str(res.output_dir / "base"), sampling=greedy, device="cpu")
    msgs = [{"role": "system", "content": "You write CUDA kernels."}, {"role": "user", "content": "Write ModelNew for relu."}]
    out = with_adapter.complete(msgs)
    assert out.usage["completion_tokens"] > 0 and isinstance(out.text, str)
    assert merged.complete(msgs).text == out.text
    ids = merged.tokenizer(merged._prompt(msgs), return_tensors="pt")["input_ids"]
    with torch.no_grad():
        la, lm, lb = (p.model(ids).logits for p in (with_adapter, merged, base))
    assert torch.allclose(la, lm, atol=1e-4)  # merging is exact
    assert (la - lb).abs().max() > 1e-2  # and the adapter learned something


def test_resume_from_the_latest_checkpoint(trained):
    cfg, res = trained
    more = load_config(CONFIG, {"data.path": cfg.data.path, "output_dir": cfg.output_dir, "sft.max_steps": 14,
                                "sft.save_steps": 6, "sft.logging_steps": 1, "sft.learning_rate": 1e-2,
                                "sft.warmup_steps": 0, "sft.report_to": "none"})
    again = train(more, resume=True)
    assert again.resumed_from.endswith("checkpoint-12")
    state = json.loads((res.output_dir / "checkpoint-14" / "trainer_state.json").read_text())
    assert state["global_step"] == 14
    steps = [h["step"] for h in state["log_history"] if "loss" in h]
    assert steps[:12] == list(range(1, 13)) and steps[-2:] == [13, 14]  # continued, not restarted
    with pytest.raises(ConfigError, match="does not exist"):
        train(more, resume=str(res.output_dir / "checkpoint-99"))


def test_two_process_launch_trains_and_rank_0_saves(exports, tmp_path):
    """The multi-GPU path (DDP under a launcher) with 2 CPU processes over gloo."""
    out = tmp_path / "ddp"
    r = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "-m", "kernelmosaic.cli",
                        "train", str(CONFIG), "--set", f"data.path={exports['iterative'].paths['train'].parent}",
                        "--set", f"output_dir={out}", "--set", "sft.max_steps=2", "--set", "sft.report_to=none"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    summaries = [json.loads(line) for line in r.stdout.splitlines() if line.startswith('{"output_dir"')]
    assert len(summaries) == 1 and summaries[0]["merged"] == str(out / "merged")  # rank 0 only
    assert summaries[0]["world_size"] == 2 and summaries[0]["distributed"] == "MULTI_CPU"
    state = json.loads((out / "checkpoint-2" / "trainer_state.json").read_text())
    assert state["global_step"] == 2
    assert (out / "final" / "adapter_model.safetensors").is_file() and (out / "merged" / "model.safetensors").is_file()


def test_a_launch_never_trains_its_processes_separately(exports, tmp_path):
    """The FSDP config on a machine without GPUs: accelerate starts 2 processes but hands each a
    single-process trainer. That must stop with a clear error (or, should accelerate learn FSDP on
    CPUs, run as one sharded job), never train twice into one output_dir."""
    cfg = tmp_path / "fsdp.yaml"
    cfg.write_text((ROOT / "configs" / "accelerate" / "fsdp.yaml").read_text().replace("mixed_precision: bf16",
                                                                                        'mixed_precision: "no"'))
    out = tmp_path / "fsdp"
    r = subprocess.run([sys.executable, "-m", "accelerate.commands.launch", "--config_file", str(cfg), "--num_processes", "2",
                        "-m", "kernelmosaic.cli", "train", str(CONFIG), "--set", f"data.path={exports['iterative'].paths['train'].parent}",
                        "--set", f"output_dir={out}", "--set", "lora=null", "--set", "merge=false", "--set", "sft.max_steps=2",
                        "--set", "sft.report_to=none", "--set", "sft.use_cpu=false"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    summaries = [json.loads(line) for line in r.stdout.splitlines() if line.startswith('{"output_dir"')]
    if r.returncode == 0:
        assert len(summaries) == 1 and summaries[0]["world_size"] == 2 and summaries[0]["distributed"] != "NO"
    else:
        assert "error: launched as 2 processes, but the trainer runs as a single one" in r.stderr
        # accelerate's launcher prints its own traceback for a failed child; none comes from ours
        assert "kernelmosaic/train/" not in r.stderr and not summaries


def test_a_diverged_run_still_writes_json():
    """NaN losses (a diverged run) must not make train_summary.json invalid JSON."""
    from pathlib import Path

    from kernelmosaic.train import TrainResult

    res = TrainResult(output_dir=Path("o"), final_dir=Path("o/final"), merged_dir=None, packing=True,
                      attn_implementation="sdpa", resumed_from=None, metrics={"train_loss": float("nan")},
                      log_history=[{"loss": float("inf"), "step": 1}])
    d = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert d["metrics"]["train_loss"] is None and d["log_history"][0] == {"loss": None, "step": 1}


def test_packed_rows_do_not_attend_across_sequences():
    import torch

    from kernelmosaic.train.attention import register
    from kernelmosaic.train.tiny import build_random_model, build_tokenizer

    tok = build_tokenizer()
    a, b = torch.randint(0, len(tok), (1, 30)), torch.randint(0, len(tok), (1, 20))
    packed, pos = torch.cat([a, b], 1), torch.cat([torch.arange(30), torch.arange(20)])[None]
    for attn in ("sdpa", register()):  # torch_varlen falls back to SDPA off CUDA
        m = build_random_model(TINY, tok, attn_implementation=attn)
        with torch.no_grad():
            la, lb = m(a).logits, m(b).logits
            lp = m(packed, position_ids=pos, use_cache=False).logits
        assert torch.allclose(lp[0, :30], la[0], atol=1e-5) and torch.allclose(lp[0, 30:], lb[0], atol=1e-5), attn
        # a right-padded batch: the real tokens of the short row match the row run alone
        mask = torch.ones(2, 30, dtype=torch.long)
        mask[1, 20:] = 0
        with torch.no_grad():
            lpad = m(torch.cat([a, torch.cat([b, a[:, :10]], 1)]), attention_mask=mask, use_cache=False).logits
        assert torch.allclose(lpad[1, :20], lb[0], atol=1e-5), attn


def test_bad_values_stop_before_the_model_is_built(exports, trained, tmp_path):
    data = str(exports["iterative"].paths["train"].parent)
    for key, value, msg in [("sft.learning_rate", "abc", "sft.learning_rate must be a number"),
                            ("sft.max_steps", 2.5, "sft.max_steps must be a whole number"),
                            ("sft.bf16", 3, "sft.bf16 must be true or false")]:
        cfg = load_config(CONFIG, {"data.path": data, "output_dir": str(tmp_path / "bad"), key: value})
        with pytest.raises(ConfigError, match=msg):
            train(cfg)
        assert not (tmp_path / "bad" / "base").exists()
    # a random-init base already in output_dir must be the model the config describes
    done_cfg, res = trained
    other = load_config(CONFIG, {"data.path": data, "output_dir": str(res.output_dir), "model.random_init.hidden_size": 32})
    with pytest.raises(ConfigError, match="random-init base with other hidden_size"):
        train(other)


def test_compiled_layers_match_eager_with_lora():
    """model.compile: layers (the throughput benchmark's fastest setting) must not change the
    numbers: loss and LoRA gradients of a packed batch, compiled against eager, on the CPU."""
    import copy

    import torch
    from peft import LoraConfig, get_peft_model

    from kernelmosaic.train.regional import compile_layers
    from kernelmosaic.train.tiny import build_random_model, build_tokenizer

    tok = build_tokenizer()
    torch.manual_seed(0)
    base = get_peft_model(build_random_model(TINY, tok), LoraConfig(r=4, lora_alpha=8, target_modules="all-linear",
                                                                    task_type="CAUSAL_LM"))
    for n, p in base.named_parameters():  # LoRA's B starts at zero: give the adapters a real effect
        if "lora_B" in n:
            torch.nn.init.normal_(p, std=0.02)
    compiled = copy.deepcopy(base)
    assert compile_layers(compiled) == TINY["num_hidden_layers"]
    results = []
    for m, n_tok in ((base, 50), (compiled, 50), (compiled, 37)):  # a new length must not recompile wrongly
        ids = torch.randint(0, len(tok), (1, n_tok), generator=torch.Generator().manual_seed(n_tok))
        pos = torch.cat([torch.arange(n_tok - 20), torch.arange(20)])[None]  # two packed sequences
        m.zero_grad()
        loss = m(input_ids=ids, position_ids=pos, labels=ids, use_cache=False).loss
        loss.backward()
        grads = {n: p.grad.clone() for n, p in m.named_parameters() if p.grad is not None}
        results.append((loss.detach(), grads))
    (l0, g0), (l1, g1), (l2, _) = results
    assert torch.allclose(l0, l1, rtol=1e-4, atol=1e-5), (l0, l1)
    assert g0.keys() == g1.keys() and all("lora_" in n for n in g0)
    for n in g0:
        assert torch.allclose(g0[n], g1[n], rtol=1e-3, atol=1e-5), n
    assert torch.isfinite(l2)


def test_packing_decision_follows_the_architecture():
    from transformers import AutoConfig

    assert decide_packing("auto", AutoConfig.for_model(**TINY))[0] is True
    assert decide_packing(False, AutoConfig.for_model(**TINY))[0] is False
    qwen35 = AutoConfig.for_model("qwen3_5_text", num_hidden_layers=4)
    assert "linear_attention" in qwen35.layer_types
    if _fla_available():
        pytest.skip("flash-linear-attention is installed: packing is safe for linear attention")
    packing, why = decide_packing("auto", qwen35)
    assert packing is False and "linear-attention" in why
    with pytest.raises(ConfigError, match="leak"):
        decide_packing(True, qwen35)


@pytest.mark.parametrize("override, needle", [
    ({"model.hidden": 3}, "unknown field(s) in 'model': hidden"),
    ({"lora.r": 0}, "lora.r must be a positive integer"),
    ({"data.packing": "maybe"}, "data.packing must be auto, true or false"),
    ({"epochs": 3}, "unknown top-level key(s): epochs"),
    ({"model.random_init": None}, "exactly one of name_or_path or random_init"),
    ({"merge": True, "lora": None}, "merge applies to LoRA runs only"),
    ({"model.random_init": {"hidden_size": 8}}, "with a model_type"),
    ({"model.compile": "everything"}, "model.compile must be false or layers"),
    ({"lora.alpha": "abc"}, "lora.alpha must be a positive number"),
    ({"lora.dropout": 2}, "lora.dropout must be a number in [0, 1)"),
    ({"lora.target_modules": 3}, "lora.target_modules must be a name"),
    ({"merge": "maybe"}, "merge must be true or false"),
])
def test_bad_configs_are_named(override, needle):
    with pytest.raises(ConfigError) as e:
        load_config(CONFIG, override)
    assert needle in str(e.value) and str(CONFIG) in str(e.value)


def test_only_yaml_1_1_exponent_strings_become_numbers(tmp_path):
    """YAML 1.1 reads 1e-4 as a string, so that form becomes a float; any other string, a run
    name of digits or "nan", stays as written."""
    f = tmp_path / "c.yaml"
    f.write_text((CONFIG.read_text() + '  run_name: "2026"\n  hub_model_id: nan\n').replace("learning_rate: 2.0e-3", "learning_rate: 2e-3"))
    sft = load_config(f).sft
    assert sft["learning_rate"] == 2e-3 and sft["run_name"] == "2026" and sft["hub_model_id"] == "nan"


def test_checkpointing_is_passed_under_the_name_this_transformers_has(tmp_path):
    """Our default and older configs say gradient_checkpointing; transformers 5.25 renamed it to
    activation_checkpointing (the old name warns, and goes in v6). The config is built without that
    warning, checkpointing on, full fine-tuning's non-reentrant default kept, and a value given
    under the new name wins over the default under the old one."""
    import warnings

    from trl import SFTConfig

    from kernelmosaic.train.sft import build_sft_config, checkpointing_names

    fields = {f.name for f in dataclasses.fields(SFTConfig)}
    full = load_config(CONFIG, {"output_dir": str(tmp_path), "sft.gradient_checkpointing": True, "lora": None,
                                "merge": False})
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        args = build_sft_config(full, packing=False, has_eval=False, device="cpu")
    assert args.gradient_checkpointing is True
    assert args.gradient_checkpointing_kwargs == {"use_reentrant": False}
    if "activation_checkpointing" in fields:
        assert args.activation_checkpointing is True
        kw = {"gradient_checkpointing": True, "activation_checkpointing": False, "gradient_checkpointing_kwargs": {"a": 1}}
        assert checkpointing_names(kw, fields) is True
        assert kw == {"activation_checkpointing": False, "activation_checkpointing_kwargs": {"a": 1}}
    kw = {"gradient_checkpointing": True}  # an older transformers: the old names stay
    assert checkpointing_names(kw, fields - {"activation_checkpointing", "activation_checkpointing_kwargs"}) is False
    assert kw == {"gradient_checkpointing": True}


def test_unknown_sft_fields_are_refused_before_loading_anything(exports, tmp_path):
    cfg = load_config(CONFIG, {"data.path": str(exports["iterative"].paths["train"].parent), "output_dir": str(tmp_path),
                               "sft.max_stepz": 3})
    with pytest.raises(ConfigError, match=r"unknown sft field\(s\): max_stepz"):
        train(cfg)
    assert not any(tmp_path.iterdir())


def test_paths_in_the_file_follow_the_file_and_overrides_follow_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config(CONFIG, {"output_dir": "out"})
    assert cfg.data.path == str(ROOT / "data" / "iterative") and cfg.output_dir == str(tmp_path / "out")


def test_cli_reports_bad_input_in_one_line_with_exit_2(exports, tmp_path):
    data = f"data.path={exports['iterative'].paths['train'].parent}"
    for sets, needle in ((["data.path=/nonexistent/export"], "/nonexistent/export/train.parquet does not exist"),
                         ([data, "lora.r=x"], "lora.r must be a positive integer")):
        args = [a for kv in sets + [f"output_dir={tmp_path}/o"] for a in ("--set", kv)]
        r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "train", str(CONFIG), *args],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
        assert needle in " ".join(r.stderr.split()), r.stderr
    r = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "train", str(tmp_path / "missing.yaml")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "no such file" in r.stderr


@pytest.mark.gpu
def test_varlen_attention_matches_sdpa_per_sequence_on_cuda():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from train_throughput import varlen_check

    res = varlen_check()
    assert res["ok"], res


@pytest.mark.gpu
def test_fsdp_full_fine_tuning_on_two_gpus(exports, tmp_path):
    """configs/accelerate/fsdp.yaml (FSDP2) with full fine-tuning: steps past the first (where
    torch 2.11 lost the final norm's unshard, see kernelmosaic/train/fsdp.py), a checkpoint and
    an evaluation in between, and one whole loadable model at the end with trained weights."""
    import torch
    from safetensors.torch import load_file

    if torch.cuda.device_count() < 2:
        pytest.skip("needs 2 GPUs")
    out = tmp_path / "fsdp"
    r = subprocess.run([sys.executable, "-m", "accelerate.commands.launch", "--config_file",
                        str(ROOT / "configs" / "accelerate" / "fsdp.yaml"), "--num_processes", "2",
                        "-m", "kernelmosaic.cli", "train", str(CONFIG), "--set", f"data.path={exports['iterative'].paths['train'].parent}",
                        "--set", f"output_dir={out}", "--set", "lora=null", "--set", "merge=false", "--set", "sft.max_steps=6",
                        "--set", "sft.save_steps=3", "--set", "sft.eval_steps=3", "--set", "sft.report_to=none",
                        "--set", "sft.use_cpu=false", "--set", "sft.bf16=true", "--set", "model.dtype=bfloat16"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    summaries = [json.loads(line) for line in r.stdout.splitlines() if line.startswith('{"output_dir"')]
    assert len(summaries) == 1 and summaries[0]["distributed"] == "FSDP" and summaries[0]["world_size"] == 2
    assert (out / "checkpoint-6").is_dir()
    base, final = load_file(str(out / "base" / "model.safetensors")), load_file(str(out / "final" / "model.safetensors"))
    # the tiny config ties lm_head to the embedding: the gathered state dict may name it twice,
    # and then both copies must still be one tensor's values
    assert set(base) <= set(final) <= set(base) | {"lm_head.weight"}
    if "lm_head.weight" not in base and "lm_head.weight" in final:
        assert torch.equal(final["lm_head.weight"], final["model.embed_tokens.weight"])
    assert all(final[k].shape == base[k].shape for k in base)
    assert sum(not torch.equal(base[k].float(), final[k].float()) for k in base) > len(base) // 2
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(out / "final"))
    assert torch.equal(model.get_output_embeddings().weight, final["model.embed_tokens.weight"].to(model.dtype))
