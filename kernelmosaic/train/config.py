"""The training config: one YAML file for ``kmosaic train``.

    model:
      name_or_path: Qwen/Qwen3.5-9B      # hub id or local dir; or random_init: {model_type: qwen3, ...}
      tokenizer: null                    # default: name_or_path; "tiny" builds the offline byte-level one
      dtype: bfloat16
      attn_implementation: auto          # auto | sdpa | torch_varlen | flex_attention | eager | ...
      compile: false                     # false | layers (torch.compile each decoder layer)
    data:
      path: data/iterative               # a `kmosaic export` folder; or train: / validation: parquet files
      max_length: 8192
      packing: auto                      # auto | true | false
      loss_turns: null                   # all | progress | final: replies that carry loss (train/targets.py)
      history_turns: null                # keep the last k turns of each row (null: all that fit max_length)
    lora: {r: 16, alpha: 32, dropout: 0.0, target_modules: all-linear}   # null: full fine-tuning
    output_dir: runs/train/qwen3.5-9b-iterative
    merge: true                          # merged model in OUTPUT_DIR/merged (LoRA only)
    sft: {...}                           # any trl.SFTConfig field, over our defaults

Relative paths in the file are resolved against the file's folder; relative paths given with
``--set`` against the working directory.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Our defaults over SFTConfig's: the recipe (assistant-only loss, bf16, gradient
# checkpointing, cosine schedule, eval loss, checkpoints, TensorBoard).
SFT_DEFAULTS: dict[str, Any] = {
    "assistant_only_loss": True,
    "bf16": True,
    "gradient_checkpointing": True,
    "lr_scheduler_type": "cosine",
    "warmup_steps": 0.03,
    "learning_rate": 1e-4,
    "num_train_epochs": 2,
    "per_device_train_batch_size": 1,
    "per_device_eval_batch_size": 1,
    "gradient_accumulation_steps": 8,
    "logging_steps": 10,
    "eval_strategy": "steps",
    "eval_steps": 100,
    "save_strategy": "steps",
    "save_steps": 100,
    "save_total_limit": 3,
    "report_to": ["tensorboard"],
    "ddp_find_unused_parameters": False,
    "seed": 0,
}
PACKING = ("auto", True, False)
_OVERRIDE_PATHS = {"data.path", "data.train", "data.validation", "output_dir", "model.name_or_path", "model.tokenizer"}


class ConfigError(ValueError):
    """The config file is malformed; the message names the field."""


@dataclass
class ModelConfig:
    name_or_path: str | None = None
    random_init: dict[str, Any] | None = None
    tokenizer: str | None = None
    dtype: str = "bfloat16"
    attn_implementation: str = "auto"
    compile: Any = False
    trust_remote_code: bool = False


@dataclass
class DataConfig:
    path: str | None = None
    train: str | None = None
    validation: str | None = None
    max_length: int = 8192
    packing: Any = "auto"
    # which assistant replies carry loss: all | progress | final (train/targets.py); null: TRL's
    # own masking, every reply, and rows over max_length cut at their end
    loss_turns: str | None = None
    history_turns: int | None = None  # keep the head and the last k turns of each row; null: all that fit


@dataclass
class LoraConfig:
    r: int = 16
    alpha: int = 32
    dropout: float = 0.0
    target_modules: Any = "all-linear"


@dataclass
class TrainConfig:
    model: ModelConfig
    data: DataConfig
    output_dir: str
    lora: LoraConfig | None = field(default_factory=LoraConfig)
    merge: bool = True
    sft: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None  # the YAML file it came from

    @property
    def train_file(self) -> Path:
        return Path(self.data.train) if self.data.train else Path(self.data.path) / "train.parquet"

    @property
    def validation_file(self) -> Path | None:
        if self.data.validation:
            return Path(self.data.validation)
        if self.data.path and (Path(self.data.path) / "validation.parquet").is_file():
            return Path(self.data.path) / "validation.parquet"
        return None


def _section(raw: dict, key: str, cls, required: bool = False):
    val = raw.get(key)
    if val is None:
        if required:
            raise ConfigError(f"missing section '{key}'")
        return None
    if not isinstance(val, dict):
        raise ConfigError(f"'{key}' must be a mapping, not {type(val).__name__}")
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(val) - names)
    if unknown:
        raise ConfigError(f"unknown field(s) in '{key}': {', '.join(unknown)} (known: {', '.join(sorted(names))})")
    return cls(**val)


def _resolve(base: Path, p: str | None) -> str | None:
    if p is None:
        return None
    q = Path(p).expanduser()
    return os.path.normpath(q if q.is_absolute() else (base / q))


_YAML11_MISSED_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+")


def _number(v: Any) -> Any:
    """YAML 1.1 reads 1e-4 (no dot) as a string; numbers are what SFTConfig wants. Only that
    form is converted: a quoted "20", "nan" or run name stays the string it was written as."""
    if isinstance(v, str) and _YAML11_MISSED_FLOAT.fullmatch(v.strip()):
        return float(v)
    return v


def parse_config(raw: dict, base_dir: Path | None = None, source: Path | None = None) -> TrainConfig:
    if not isinstance(raw, dict):
        raise ConfigError("the config must be a YAML mapping")
    known = {"model", "data", "lora", "output_dir", "merge", "sft"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ConfigError(f"unknown top-level key(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    model = _section(raw, "model", ModelConfig, required=True)
    data = _section(raw, "data", DataConfig, required=True)
    lora = _section(raw, "lora", LoraConfig) if "lora" in raw else LoraConfig()
    if not raw.get("output_dir"):
        raise ConfigError("missing 'output_dir'")
    sft = raw.get("sft") or {}
    if not isinstance(sft, dict):
        raise ConfigError("'sft' must be a mapping of trl.SFTConfig fields")
    sft = {k: _number(v) for k, v in sft.items()}
    _check_steps(sft)

    if bool(model.name_or_path) == bool(model.random_init):
        raise ConfigError("model: give exactly one of name_or_path or random_init")
    if model.random_init is not None and (not isinstance(model.random_init, dict) or not model.random_init.get("model_type")):
        raise ConfigError("model.random_init must be a mapping of config fields with a model_type (e.g. qwen3)")
    if model.random_init is not None and not model.tokenizer:
        raise ConfigError("model.random_init needs model.tokenizer (a tokenizer dir, or 'tiny')")
    if model.compile not in (False, None, "layers"):
        raise ConfigError(f"model.compile must be false or layers, not {model.compile!r}"
                          + (" (say which part: layers)" if model.compile is True else ""))
    if model.dtype not in ("bfloat16", "float16", "float32"):
        raise ConfigError(f"model.dtype must be bfloat16, float16 or float32, not {model.dtype!r}")
    if not (data.path or data.train):
        raise ConfigError("data: give path (an export folder) or train (a parquet file)")
    if data.packing not in PACKING:
        raise ConfigError(f"data.packing must be auto, true or false, not {data.packing!r}")
    if data.loss_turns is not None and data.loss_turns not in ("all", "progress", "final"):
        raise ConfigError(f"data.loss_turns must be all, progress or final, not {data.loss_turns!r}")
    if data.history_turns is not None and (isinstance(data.history_turns, bool) or not isinstance(data.history_turns, int)
                                           or data.history_turns < 1):
        raise ConfigError(f"data.history_turns must be a positive integer (or null: every turn that fits), "
                          f"not {data.history_turns!r}")
    if not isinstance(data.max_length, int) or data.max_length < 8:
        raise ConfigError(f"data.max_length must be an integer >= 8, not {data.max_length!r}")
    if lora is not None and (not isinstance(lora.r, int) or lora.r < 1):
        raise ConfigError(f"lora.r must be a positive integer, not {lora.r!r}")
    if lora is not None and (isinstance(lora.alpha, bool) or not isinstance(lora.alpha, (int, float)) or lora.alpha <= 0):
        raise ConfigError(f"lora.alpha must be a positive number, not {lora.alpha!r}")
    if lora is not None and (isinstance(lora.dropout, bool) or not isinstance(lora.dropout, (int, float))
                             or not 0 <= lora.dropout < 1):
        raise ConfigError(f"lora.dropout must be a number in [0, 1), not {lora.dropout!r}")
    if lora is not None and not (isinstance(lora.target_modules, str) or (
            isinstance(lora.target_modules, list) and lora.target_modules
            and all(isinstance(m, str) for m in lora.target_modules))):
        raise ConfigError(f"lora.target_modules must be a name (e.g. all-linear) or a list of names, not {lora.target_modules!r}")
    if "merge" in raw and not isinstance(raw["merge"], bool):
        raise ConfigError(f"merge must be true or false, not {raw['merge']!r}")
    if lora is None and raw.get("merge") is True:
        raise ConfigError("merge applies to LoRA runs only (full fine-tuning saves the whole model)")

    base = base_dir or Path.cwd()
    if model.name_or_path and (model.name_or_path.startswith((".", "/", "~")) or (base / model.name_or_path).exists()):
        model.name_or_path = _resolve(base, model.name_or_path)
    if model.tokenizer and model.tokenizer != "tiny" and model.tokenizer.startswith((".", "/", "~")):
        model.tokenizer = _resolve(base, model.tokenizer)
    data.path, data.train, data.validation = (_resolve(base, data.path), _resolve(base, data.train),
                                              _resolve(base, data.validation))
    # output_dir is relative to the working directory, like any output path typed on a command
    # line: relative to the config file, the shipped configs wrote runs/ into the source checkout
    return TrainConfig(model=model, data=data, lora=lora, output_dir=_resolve(Path.cwd(), str(raw["output_dir"])),
                       merge=bool(raw.get("merge", lora is not None)) and lora is not None, sft=sft, source=source)


def _check_steps(sft: dict[str, Any]) -> None:
    """A run that would take no step is refused: it used to exit 0 and save an untrained
    "merged" model. TRL's max_steps -1 means "by epochs"; epochs must then be positive."""
    steps, epochs = sft.get("max_steps"), sft.get("num_train_epochs")
    if isinstance(steps, (int, float)) and not isinstance(steps, bool) and steps != -1 and steps < 1:
        raise ConfigError(f"sft.max_steps must be at least 1 (or -1: train by epochs), not {steps!r}: "
                          "the run would train nothing")
    if (isinstance(epochs, (int, float)) and not isinstance(epochs, bool) and epochs <= 0
            and not (isinstance(steps, int) and steps >= 1)):
        raise ConfigError(f"sft.num_train_epochs must be greater than 0, not {epochs!r}: the run would train nothing")


def sft_field_names() -> set[str] | None:
    """The fields of trl.SFTConfig (and the TrainingArguments it extends), read from their
    source files without importing them: importing trl takes 30-40 s, and a typo in a field
    should be reported at once. None when the sources are not where expected (the full check
    in ``sft.train`` still runs)."""
    import ast
    import importlib.util

    names: set[str] = set()
    for mod, rel, cls in (("trl", "trainer/sft_config.py", "SFTConfig"),
                          ("transformers", "training_args.py", "TrainingArguments")):
        spec = importlib.util.find_spec(mod)
        if spec is None or not spec.submodule_search_locations:
            return None
        src = Path(spec.submodule_search_locations[0]) / rel
        try:
            tree = ast.parse(src.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError):
            return None
        body = next((n.body for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
        if body is None:
            return None
        names |= {n.target.id for n in body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    return names


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Read a YAML config. ``overrides`` ({"sft.max_steps": 5, "output_dir": ...}) replace fields by dotted key."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML ({' '.join(str(e).split())})") from None
    raw = raw or {}
    for key, val in (overrides or {}).items():
        if key in _OVERRIDE_PATHS and isinstance(val, str) and val != "tiny" and not Path(val).is_absolute() \
                and (key not in ("model.name_or_path", "model.tokenizer") or Path(val).exists()):
            val = os.path.abspath(val)  # a path typed on the command line is relative to the working directory
        set_dotted(raw, key, val)
    try:
        return parse_config(raw, base_dir=path.parent, source=path)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def set_dotted(raw: dict, key: str, val: Any) -> None:
    """``raw["a"]["b"] = val`` for the override ``a.b=val``, making the mappings on the way;
    ConfigError where a part of the path is not a mapping."""
    node = raw
    *parents, leaf = key.split(".")
    for p in parents:
        node = node.setdefault(p, {})
        if not isinstance(node, dict):
            raise ConfigError(f"override {key}: {p} is not a mapping")
    node[leaf] = val


def parse_overrides(items: list[str] | None) -> dict[str, Any]:
    """``["sft.max_steps=5", "data.path=data/x"]`` -> {"sft.max_steps": 5, ...}; values are YAML scalars."""
    import yaml

    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, val = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE (e.g. sft.max_steps=5)")
        try:
            out[key.strip()] = _number(yaml.safe_load(val))
        except yaml.YAMLError:
            out[key.strip()] = val
    return out
