"""SFT on exported chats with TRL's ``SFTTrainer``, LoRA (PEFT) or full fine-tuning.

    from kernelmosaic.train import load_config, train
    result = train(load_config("configs/train/tiny-qwen-cpu.yaml"))

What it does, in order: read the ``messages`` column of the export's parquet files (the
iterative, direct and steps views all have it), load or build the model, decide on packing and
the attention kernel, run ``SFTTrainer`` (resuming from the latest checkpoint when asked), save
the final adapter (or full model) with the tokenizer in ``OUTPUT_DIR/final``, and merge the
adapter into the base weights in ``OUTPUT_DIR/merged``: a plain transformers checkpoint that
``TransformersLLM`` and vLLM load without PEFT.

Multi-GPU: the same entry point under ``accelerate launch`` (DDP, or FSDP for full
fine-tuning); see docs/training.md.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._json import finite
from .attention import choose as choose_attention
from .config import SFT_DEFAULTS, ConfigError, TrainConfig

log = logging.getLogger(__name__)

BASE_DIR = "base"  # random-init runs only
FINAL_DIR = "final"
MERGED_DIR = "merged"
SUMMARY = "train_summary.json"


@dataclass
class TrainResult:
    output_dir: Path
    final_dir: Path  # the adapter (LoRA) or the whole model (full fine-tuning), with the tokenizer
    merged_dir: Path | None  # LoRA merged into the base; None without merge
    packing: bool
    attn_implementation: str
    resumed_from: str | None
    n_truncated: int = 0  # training rows longer than max_length
    distributed: str = "NO"  # accelerate's DistributedType of the run: NO, MULTI_GPU, MULTI_CPU, FSDP, ...
    world_size: int = 1
    metrics: dict[str, Any] = field(default_factory=dict)  # train_* and eval_* from the trainer
    log_history: list[dict[str, Any]] = field(default_factory=list)
    # data.loss_turns / history_turns runs: rows, tokens and loss-carrying tokens (targets.TargetStats)
    targets: dict[str, Any] | None = None
    global_step: int = 0  # optimizer steps taken
    tokens_seen: int | None = None  # input tokens trained on, with sft.include_num_input_tokens_seen

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: a diverged run's NaN or inf losses become strings, so the file stays JSON."""
        d = dataclasses.asdict(self)
        for k in ("output_dir", "final_dir", "merged_dir"):
            d[k] = None if d[k] is None else str(d[k])
        return finite(d)


def _linear_attention_layers(config) -> bool:
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    return "linear_attention" in (getattr(text, "layer_types", None) or [])


def _fla_available() -> bool:
    from .linear_attention import fla_ops

    return fla_ops() is not None


def decide_packing(requested: Any, model_config) -> tuple[bool, str]:
    """Packing (padding-free, TRL's best-fit-decreasing) unless the model cannot keep packed
    sequences apart. Linear-attention layers (Qwen3.5's gated delta net) can only when
    flash-linear-attention (``fla``) imports and train/linear_attention.py has a packed path for
    the model: transformers' own GDN layers run the short convolution over the whole packed row
    (and, without fla, the delta rule too). Saying "packing" for such a model installs that
    path (``linear_attention.enable``), so the answer and the model's behaviour cannot disagree."""
    from . import linear_attention

    linear = _linear_attention_layers(model_config)
    reason = linear_attention.fla_refusal() if linear else None
    if reason:  # transformers calls fla in padded rows too: refuse now, not at the first backward
        raise ConfigError(reason)
    if requested is False:
        return False, "padded batches (set in the config)"
    safe = not linear or linear_attention.enable(model_config)
    if not safe and requested == "auto":
        why = ("flash-linear-attention does not import" if not _fla_available() else
               f"no packed path for model_type {linear_attention.text_model_type(model_config)!r}")
        return False, f"padded batches: linear-attention layers would mix packed sequences ({why})"
    if not safe:
        raise ConfigError("data.packing: true would let packed sequences leak into each other in this model's "
                          "linear-attention layers (install flash-linear-attention, or set packing: false)")
    if requested == "auto":
        return True, ("packing (best-fit decreasing, padding-free" +
                      ("; linear attention through fla's varlen kernels)" if linear else ")"))
    return True, "packing (set in the config)"


def _load_tokenizer(cfg: TrainConfig):
    from transformers import AutoTokenizer

    from .tiny import build_tokenizer

    name = cfg.model.tokenizer or cfg.model.name_or_path
    if name == "tiny":
        return build_tokenizer()
    tok = AutoTokenizer.from_pretrained(name, trust_remote_code=cfg.model.trust_remote_code)
    if tok.chat_template is None:
        raise ConfigError(f"the tokenizer of {name} has no chat template; the messages views need one")
    return tok


def _load_model(cfg: TrainConfig, tokenizer, attn: str | None, is_main: bool):
    """The base model. A random-init base is saved to OUTPUT_DIR/base on first use and loaded from
    there afterwards, so the adapter has a base on disk and a resumed run trains the same weights."""
    import torch
    from transformers import AutoModelForCausalLM

    from .tiny import build_random_model

    kw = {"dtype": getattr(torch, cfg.model.dtype), "trust_remote_code": cfg.model.trust_remote_code}
    if attn:
        kw["attn_implementation"] = attn
    if cfg.model.random_init is None:
        return AutoModelForCausalLM.from_pretrained(cfg.model.name_or_path, **kw)
    base = Path(cfg.output_dir) / BASE_DIR
    if (base / "config.json").is_file():
        saved = json.loads((base / "config.json").read_text())
        changed = sorted(k for k, v in cfg.model.random_init.items() if k in saved and saved[k] != v)
        if changed:  # loading it anyway would train another model than the config describes
            raise ConfigError(f"{base} holds a random-init base with other {', '.join(changed)} than model.random_init; "
                              "use a new output_dir")
        return AutoModelForCausalLM.from_pretrained(str(base), **kw)
    model = build_random_model(cfg.model.random_init, tokenizer, dtype=cfg.model.dtype, attn_implementation=attn,
                               seed=int(cfg.sft.get("seed", SFT_DEFAULTS["seed"])))
    if is_main:  # written aside and renamed, so another rank never loads half a checkpoint
        tmp = base.with_name(base.name + ".tmp")
        model.save_pretrained(str(tmp))
        tokenizer.save_pretrained(str(tmp))
        tmp.rename(base)
    # PEFT records it as the adapter's base_model_name_or_path
    model.config._name_or_path = model.name_or_path = str(base)
    return model


def _model_config(cfg: TrainConfig):
    from transformers import AutoConfig

    if cfg.model.random_init is not None:
        fields = dict(cfg.model.random_init)
        return AutoConfig.for_model(fields.pop("model_type"), **fields)
    return AutoConfig.from_pretrained(cfg.model.name_or_path, trust_remote_code=cfg.model.trust_remote_code)


def load_messages(path: Path, extra: tuple[str, ...] = ()):
    """A parquet export split as a ``datasets.Dataset`` with only the ``messages`` column (and
    those of ``extra`` that it has)."""
    import datasets

    if not path.is_file():
        raise ConfigError(f"data file {path} does not exist (run `kmosaic export` first)")
    ds = datasets.load_dataset("parquet", data_files={"x": str(path)}, split="x")
    if "messages" not in ds.column_names:
        raise ConfigError(f"{path} has no 'messages' column (columns: {', '.join(ds.column_names)})")
    if ds.num_rows == 0:
        raise ConfigError(f"{path} has no rows")
    return ds.select_columns(["messages"] + [c for c in extra if c in ds.column_names])


def count_over_length(ds, tokenizer, max_length: int) -> int:
    """Rows longer than max_length tokens: truncation keeps their start, so they lose the final
    assistant reply, which is what the iterative view trains on."""
    n = 0
    for batch in ds.select_columns(["messages"]).iter(batch_size=256):  # a fast tokenizer encodes a batch in parallel
        ids = tokenizer.apply_chat_template(batch["messages"], tokenize=True, return_dict=True)["input_ids"]
        n += sum(len(x) > max_length for x in ids)
    return n


def latest_checkpoint(output_dir: str | Path) -> str | None:
    from transformers.trainer_utils import get_last_checkpoint

    return get_last_checkpoint(str(output_dir)) if Path(output_dir).is_dir() else None


def own_targets(cfg: TrainConfig) -> bool:
    """Rows tokenized by train/targets.py (loss per reply, history) instead of by TRL."""
    return cfg.data.loss_turns is not None or cfg.data.history_turns is not None


def build_sft_config(cfg: TrainConfig, *, packing: bool, has_eval: bool, device: str):
    from trl import SFTConfig

    kw: dict[str, Any] = dict(SFT_DEFAULTS)
    kw.update(max_length=cfg.data.max_length, packing=packing, output_dir=cfg.output_dir)
    if own_targets(cfg):
        # the rows come tokenized with their assistant masks, from which TRL builds the labels;
        # its assistant_only_loss would ask for chats
        kw["assistant_only_loss"] = False
    if packing:
        kw["packing_strategy"] = "bfd"
    if device == "cpu":
        kw.update(bf16=cfg.model.dtype == "bfloat16", use_cpu=True)
    if not has_eval:
        kw["eval_strategy"] = "no"
    kw.update(cfg.sft)
    if "tensorboard" in (kw.get("report_to") or []):
        try:
            import tensorboard  # noqa: F401
        except ImportError:
            try:
                import tensorboardX  # noqa: F401
            except ImportError:
                raise ConfigError("report_to tensorboard needs tensorboard: pip install tensorboard "
                                  "(or set sft.report_to: none)") from None
    new_names = checkpointing_names(kw, {f.name for f in dataclasses.fields(SFTConfig)})
    name = "activation_checkpointing" if new_names else "gradient_checkpointing"
    if cfg.lora is None and kw.get(name):
        kw.setdefault(name + "_kwargs", {"use_reentrant": False})
    return SFTConfig(**kw)


# transformers 5.25 renamed TrainingArguments' gradient_checkpointing(_kwargs) to
# activation_checkpointing(_kwargs): the old names still work there, with a FutureWarning, and go
# in v6; 5.17 (the GPU image's) knows only the old ones. Our default, and configs written for an
# older transformers, use the old names.
_RENAMED = (("gradient_checkpointing", "activation_checkpointing"),
            ("gradient_checkpointing_kwargs", "activation_checkpointing_kwargs"))


def checkpointing_names(kw: dict[str, Any], fields: set[str]) -> bool:
    """Move the old names in ``kw`` to the new ones where SFTConfig's ``fields`` have them (a value
    given under the new name wins over the same setting under the old one: our default sets the
    old). Returns whether this transformers has the new names."""
    new_names = all(new in fields for _, new in _RENAMED)
    if new_names:
        for old, new in _RENAMED:
            if old in kw:
                kw.setdefault(new, kw.pop(old))
    return new_names


def _device(cfg: TrainConfig) -> str:
    import torch

    if cfg.sft.get("use_cpu") or not torch.cuda.is_available():
        return "cpu"
    return "cuda"


def check_sft_types(sft: dict[str, Any], types: dict[str, Any]) -> None:
    """Numbers and switches of SFTConfig checked up front: a wrong one would otherwise fail deep in
    TrainingArguments (e.g. "'<=' not supported between float and str"), after the model loaded."""
    import typing

    for k, v in sft.items():
        t = types.get(k)
        args = [a for a in typing.get_args(t) if a is not type(None)]
        if len(args) == 1:  # ``bool | None``, ``int | None``: a value given must still be that type
            t = args[0]
        if v is None or t not in (bool, int, float):
            continue  # strings, strategies and other unions are left to SFTConfig itself
        if t is bool and not isinstance(v, bool):
            raise ConfigError(f"sft.{k} must be true or false, not {v!r}")
        if t in (int, float) and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise ConfigError(f"sft.{k} must be a number, not {v!r}")
        if t is int and isinstance(v, float) and not v.is_integer():
            raise ConfigError(f"sft.{k} must be a whole number, not {v!r}")


def train(cfg: TrainConfig, *, resume: bool | str = False, callbacks: list | None = None) -> TrainResult:
    """Run SFT per ``cfg``. ``resume``: True for the latest checkpoint in output_dir, or a checkpoint path.
    ``callbacks``: transformers ``TrainerCallback``s (an ablation's token budget)."""
    for f in (cfg.train_file, cfg.validation_file):
        if f is not None and not f.is_file():  # checked before the heavy imports
            raise ConfigError(f"data file {f} does not exist (run `kmosaic export` first)")
    from trl import SFTConfig, SFTTrainer

    names = {f.name for f in dataclasses.fields(SFTConfig)}
    unknown = sorted(set(cfg.sft) - names)
    if unknown:  # before any data or model is loaded
        raise ConfigError(f"unknown sft field(s): {', '.join(unknown)} (see trl.SFTConfig)")
    check_sft_types(cfg.sft, {f.name: f.type for f in dataclasses.fields(SFTConfig)})
    device = _device(cfg)
    from .targets import PROGRESS_COLUMN, prepare

    extra = (PROGRESS_COLUMN,) if own_targets(cfg) else ()
    train_ds = load_messages(cfg.train_file, extra)
    val_file = cfg.validation_file
    eval_ds = load_messages(val_file, extra) if val_file is not None else None
    tokenizer = _load_tokenizer(cfg)
    from .command import rank

    rank0 = rank() == 0
    targets = None
    if own_targets(cfg):
        kw = dict(loss_turns=cfg.data.loss_turns or "all", history_turns=cfg.data.history_turns,
                  max_length=cfg.data.max_length)
        train_ds, stats = prepare(train_ds, tokenizer, **kw)
        if eval_ds is not None:
            eval_ds, eval_stats = prepare(eval_ds, tokenizer, **kw)
        targets = {**kw, "train": stats.to_dict(), "validation": eval_stats.to_dict() if eval_ds is not None else None}
        n_long = stats.rows_over_length
        log.info("targets: loss on %s replies, history %s: %d rows, %d tokens, %d carry loss; %d rows shortened",
                 kw["loss_turns"], cfg.data.history_turns or "all that fit", stats.rows, stats.tokens,
                 stats.loss_tokens, stats.rows_shortened)
    else:
        # rank 0 reports for the whole launch; the other ranks need not tokenize everything again
        n_long = count_over_length(train_ds, tokenizer, cfg.data.max_length) if rank0 else 0
    if n_long:
        log.warning("%d of %d training rows are longer than max_length=%d tokens and will be truncated "
                    "(their last assistant turns lose loss); raise data.max_length", n_long, train_ds.num_rows,
                    cfg.data.max_length)
    packing, why = decide_packing(cfg.data.packing, _model_config(cfg))
    attn = choose_attention(cfg.model.attn_implementation, packing=packing, device=device)
    log.info("%s; attention %s", why, attn)
    args = build_sft_config(cfg, packing=packing, has_eval=eval_ds is not None, device=device)

    resume_from = None
    if resume is True:
        resume_from = latest_checkpoint(cfg.output_dir)
        if resume_from is None:
            log.warning("no checkpoint in %s: starting from scratch", cfg.output_dir)
    elif resume:
        resume_from = str(resume)
        if not Path(resume_from).is_dir():
            raise ConfigError(f"checkpoint {resume_from} does not exist")

    model = _load_model(cfg, tokenizer, attn, is_main=rank0)
    peft_config = None
    if cfg.lora is not None:
        from peft import LoraConfig

        peft_config = LoraConfig(r=cfg.lora.r, lora_alpha=cfg.lora.alpha, lora_dropout=cfg.lora.dropout,
                                 target_modules=cfg.lora.target_modules, task_type="CAUSAL_LM")
    trainer = SFTTrainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                         processing_class=tokenizer, peft_config=peft_config, callbacks=callbacks)
    launched = int(os.environ.get("WORLD_SIZE", "1"))
    if launched > 1 and trainer.accelerator.num_processes == 1:
        # seen with an FSDP accelerate config on a machine without GPUs: every process would
        # train alone and all of them would write the same output_dir
        raise ConfigError(f"launched as {launched} processes, but the trainer runs as a single one "
                          f"(accelerate: {trainer.accelerator.distributed_type}); check the launcher's config "
                          "against this machine (FSDP needs GPUs)")
    if getattr(trainer.accelerator, "is_fsdp2", False):
        from .fsdp import mend_partial_groups

        mend_partial_groups(trainer.model)
    if cfg.model.compile == "layers":
        from .regional import compile_layers

        # after PEFT wrapped the model, so the adapters are inside the compiled graphs
        log.info("torch.compile on %d decoder layers (the first steps include compiling)", compile_layers(trainer.model))
    out = trainer.train(resume_from_checkpoint=resume_from)
    metrics = dict(out.metrics)
    if eval_ds is not None:
        metrics.update(trainer.evaluate())

    final_dir = Path(cfg.output_dir) / FINAL_DIR
    trainer.save_model(str(final_dir))  # adapter (LoRA) or model; the tokenizer comes along
    merged_dir = None
    if trainer.is_world_process_zero():
        tokenizer.save_pretrained(str(final_dir))
        if cfg.merge and cfg.lora is not None:
            merged_dir = Path(cfg.output_dir) / MERGED_DIR
            merge_adapter(trainer.model, tokenizer, merged_dir)
    result = TrainResult(output_dir=Path(cfg.output_dir), final_dir=final_dir, merged_dir=merged_dir,
                         packing=packing, attn_implementation=attn, resumed_from=resume_from, n_truncated=n_long,
                         distributed=getattr(trainer.accelerator.distributed_type, "value",
                                             str(trainer.accelerator.distributed_type)),
                         world_size=trainer.accelerator.num_processes,
                         metrics=metrics, log_history=list(trainer.state.log_history), targets=targets,
                         global_step=trainer.state.global_step,
                         tokens_seen=(trainer.state.num_input_tokens_seen
                                      if args.include_num_input_tokens_seen not in ("no", False) else None))
    if trainer.is_world_process_zero():
        (Path(cfg.output_dir) / SUMMARY).write_text(json.dumps(result.to_dict(), indent=2, default=str))
    return result


def merge_adapter(peft_model, tokenizer, out_dir: str | Path) -> Path:
    """Fold the LoRA weights into the base and save a plain checkpoint (no PEFT needed to load it).
    Merges in place (no second copy of a 9B model): call it after the adapter was saved."""
    out_dir = Path(out_dir)
    model = peft_model.merge_and_unload()
    # a training-only attention kernel must not be written into the checkpoint's config
    if getattr(model.config, "_attn_implementation", None) not in (None, "sdpa", "eager", "flash_attention_2"):
        model.config._attn_implementation = "sdpa"
    model.config.use_cache = True
    model.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    return out_dir
