"""The ablation config: one YAML file for ``kmosaic ablate``.

    store: ../../runs/store.db            # the one store both arms are exported from
    out: runs/ablate/tiny-cpu             # everything the run writes
    export: {history: full, reasoning: false, verified_only: true, val_fraction: 0.0, seed: 0, run_ids: null}
    train:
      config: ../train/tiny-qwen-cpu.yaml # the training config every arm starts from
      set: {sft.learning_rate: 2.0e-3}    # dotted overrides for every arm
    budget: {match: steps, steps: 20}     # or {match: tokens, epochs: 2, max_steps: 2000}
    arms:                                 # one direct arm, one or more iterative arms
      - {name: direct, view: direct}
      - {name: iterative, view: iterative, loss_turns: all}
      - {name: iterative-final, view: iterative, loss_turns: final, history_turns: 2}
    bench: {kernelbench: null, levels: "1,2", problems: "1-3", mode: agent, turns: "1,0", samples: 1, ...}
    report: {bootstrap: 2000, confidence: 0.95, seed: 0}

Paths in the file (store, train.config, bench.kernelbench) are relative to the file; ``out`` and
paths given with ``--set`` are relative to the working directory, as in a training config.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..train.config import ConfigError, set_dotted
from ..vocab import PROTOCOLS

VIEWS = ("direct", "iterative")
LOSS_TURNS = ("all", "progress", "final")
MATCH = ("steps", "tokens")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class AblateError(ValueError):
    """The ablation config or its inputs are wrong; the message says which field."""


@dataclass
class ExportOptions:
    history: str = "full"  # iterative arms: recorded | full
    reasoning: bool = False
    verified_only: bool = True
    val_fraction: float = 0.0
    seed: int = 0
    run_ids: list[str] | None = None


@dataclass
class TrainOptions:
    config: str = ""
    set: dict[str, Any] = field(default_factory=dict)


@dataclass
class Budget:
    match: str = "steps"  # steps: the same optimizer steps | tokens: the same input tokens
    steps: int | None = None  # match: steps
    epochs: float = 1.0  # match: tokens - the budget is epochs x the smallest arm's tokens per epoch
    max_steps: int = 10000  # match: tokens - a cap, in case the budget is never reached


@dataclass
class Arm:
    name: str
    view: str
    loss_turns: str = "all"
    history_turns: int | None = None


@dataclass
class BenchOptions:
    kernelbench: str | None = None  # default: $KERNELBENCH_DIR
    levels: str = "1,2,3"
    problems: str | None = None
    mode: str = "agent"
    samples: int = 1
    turns: str = "1,0"
    device: str | None = None
    backend: str | None = None
    policy: str = "strict"
    # kernelbench: each arm's turns are also judged by KernelBench's evaluator (bench --protocol),
    # and the report gives those results too, beside the project's
    protocol: str = "kernelmosaic"
    baselines: str = "none"
    stored_hardware: str = "H100_Modal"
    timing_runs: int = 30
    temperature: float = 0.0
    top_p: float = 1.0
    max_new_tokens: int = 256
    batch_size: int = 8
    concurrency: int = 4
    workers: int | None = None


@dataclass
class ReportOptions:
    bootstrap: int = 2000
    confidence: float = 0.95
    seed: int = 0


@dataclass
class AblateConfig:
    store: str
    out: str
    export: ExportOptions
    train: TrainOptions
    budget: Budget
    arms: list[Arm]
    bench: BenchOptions
    report: ReportOptions
    source: Path | None = None

    @property
    def direct(self) -> Arm:
        return next(a for a in self.arms if a.view == "direct")


def _no_unknown_fields(cls, val: dict, where: str) -> None:
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(val) - names)
    if unknown:
        raise AblateError(f"{where}unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(names))})")


def _section(raw: dict, key: str, cls, required: bool = False):
    val = raw.get(key)
    if val is None:
        if required:
            raise AblateError(f"missing section '{key}'")
        return cls()
    if not isinstance(val, dict):
        raise AblateError(f"'{key}' must be a mapping, not {type(val).__name__}")
    _no_unknown_fields(cls, val, f"'{key}': ")
    return cls(**val)


def _int(v: Any, what: str, lo: int = 1) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise AblateError(f"{what} must be an integer >= {lo}, not {v!r}")
    return v


def _num(v: Any, what: str) -> float:
    if isinstance(v, str):
        try:
            v = float(v)  # YAML 1.1 reads 1e-4 as a string
        except ValueError:
            pass
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise AblateError(f"{what} must be a number, not {v!r}")
    return float(v)


def _resolve(base: Path, p: str | None) -> str | None:
    if p is None:
        return None
    q = Path(os.path.expanduser(str(p)))
    return os.path.normpath(q if q.is_absolute() else base / q)


def parse_config(raw: dict, base_dir: Path, source: Path | None = None) -> AblateConfig:
    if not isinstance(raw, dict):
        raise AblateError("the config must be a YAML mapping")
    known = {"store", "out", "export", "train", "budget", "arms", "bench", "report"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise AblateError(f"unknown top-level key(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    for key in ("store", "out"):
        if not raw.get(key) or not isinstance(raw[key], str):
            raise AblateError(f"missing '{key}' (a path)")
    export = _section(raw, "export", ExportOptions)
    train = _section(raw, "train", TrainOptions, required=True)
    budget = _section(raw, "budget", Budget, required=True)
    bench = _section(raw, "bench", BenchOptions, required=True)
    report = _section(raw, "report", ReportOptions)

    if export.history not in ("recorded", "full"):
        raise AblateError(f"export.history must be recorded or full, not {export.history!r}")
    if not isinstance(export.reasoning, bool) or not isinstance(export.verified_only, bool):
        raise AblateError("export.reasoning and export.verified_only must be true or false")
    export.val_fraction = _num(export.val_fraction, "export.val_fraction")
    if not 0 <= export.val_fraction < 1:
        raise AblateError(f"export.val_fraction must be in [0, 1), not {export.val_fraction}")
    _int(export.seed, "export.seed", 0)
    if export.run_ids is not None and (not isinstance(export.run_ids, list) or not all(isinstance(r, str) for r in export.run_ids)):
        raise AblateError("export.run_ids must be a list of run ids, or null (every run)")

    if not train.config or not isinstance(train.config, str):
        raise AblateError("train.config must name a training config (YAML), e.g. ../train/tiny-qwen-cpu.yaml")
    if not isinstance(train.set, dict):
        raise AblateError("train.set must be a mapping of dotted fields (sft.learning_rate: 2.0e-3)")
    for k in train.set:
        if k in ("data.path", "data.train", "data.validation", "output_dir", "data.loss_turns", "data.history_turns",
                 "sft.max_steps", "sft.num_train_epochs") or not isinstance(k, str):
            raise AblateError(f"train.set: {k} is set by the ablation for each arm (data, output, budget, targets)")

    if budget.match not in MATCH:
        raise AblateError(f"budget.match must be steps or tokens, not {budget.match!r}")
    if budget.match == "steps":
        _int(budget.steps, "budget.steps (match: steps)")
    else:
        budget.epochs = _num(budget.epochs, "budget.epochs")
        if budget.epochs <= 0:
            raise AblateError(f"budget.epochs must be > 0, not {budget.epochs}")
        _int(budget.max_steps, "budget.max_steps")

    arms_raw = raw.get("arms")
    if not isinstance(arms_raw, list) or not arms_raw:
        raise AblateError("arms must be a list: one direct arm and at least one iterative arm")
    arms = []
    for i, a in enumerate(arms_raw):
        if not isinstance(a, dict):
            raise AblateError(f"arms[{i}] must be a mapping (name, view, loss_turns, history_turns)")
        _no_unknown_fields(Arm, a, f"arms[{i}]: ")
        if not isinstance(a.get("name"), str) or not _NAME.fullmatch(a["name"]):
            raise AblateError(f"arms[{i}].name must be a name of letters, digits, '.', '_' or '-', not {a.get('name')!r}")
        arm = Arm(**a)
        if arm.view not in VIEWS:
            raise AblateError(f"arms[{i}] ({arm.name}): view must be direct or iterative, not {arm.view!r}")
        if arm.loss_turns not in LOSS_TURNS:
            raise AblateError(f"arms[{i}] ({arm.name}): loss_turns must be all, progress or final, not {arm.loss_turns!r}")
        if arm.history_turns is not None:
            _int(arm.history_turns, f"arms[{i}] ({arm.name}).history_turns")
        arms.append(arm)
    if len({a.name for a in arms}) != len(arms):
        raise AblateError("arms: two arms share a name")
    n_direct = sum(a.view == "direct" for a in arms)
    if n_direct != 1 or n_direct == len(arms):
        raise AblateError(f"arms: exactly one direct arm and at least one iterative arm are needed "
                          f"({n_direct} direct, {len(arms) - n_direct} iterative)")

    if bench.mode not in ("single", "agent"):
        raise AblateError(f"bench.mode must be single or agent, not {bench.mode!r}")
    if bench.protocol not in PROTOCOLS:
        raise AblateError(f"bench.protocol must be {' or '.join(PROTOCOLS)}, not {bench.protocol!r}")
    if bench.baselines not in ("measure", "kernelbench", "none"):
        raise AblateError(f"bench.baselines must be measure, kernelbench or none, not {bench.baselines!r}")
    for name in ("samples", "timing_runs", "max_new_tokens", "batch_size", "concurrency"):
        _int(getattr(bench, name), f"bench.{name}")
    if bench.workers is not None:
        _int(bench.workers, "bench.workers")
    bench.temperature, bench.top_p = _num(bench.temperature, "bench.temperature"), _num(bench.top_p, "bench.top_p")
    if bench.temperature < 0 or not 0 < bench.top_p <= 1:
        raise AblateError("bench.temperature must be >= 0 and bench.top_p in (0, 1]")
    if bench.samples > 1 and bench.temperature == 0:
        raise AblateError("bench.samples > 1 with temperature 0 would repeat one greedy reply; set a temperature")
    for name in ("levels", "turns"):
        if not isinstance(getattr(bench, name), str):
            raise AblateError(f"bench.{name} must be a string (e.g. \"1,2\"), not {getattr(bench, name)!r}")
    if bench.problems is not None and not isinstance(bench.problems, (str, int)):
        raise AblateError(f"bench.problems must be a string like \"1-3,L2/76\", not {bench.problems!r}")
    if bench.problems is not None:
        bench.problems = str(bench.problems)

    _int(report.bootstrap, "report.bootstrap", 100)
    report.confidence = _num(report.confidence, "report.confidence")
    if not 0.5 <= report.confidence < 1:
        raise AblateError(f"report.confidence must be in [0.5, 1), not {report.confidence}")
    _int(report.seed, "report.seed", 0)

    train.config = _resolve(base_dir, train.config)
    if bench.kernelbench is not None:
        bench.kernelbench = _resolve(base_dir, bench.kernelbench)
    return AblateConfig(store=_resolve(base_dir, raw["store"]), out=_resolve(Path.cwd(), raw["out"]), export=export,
                        train=train, budget=budget, arms=arms, bench=bench, report=report, source=source)


_CWD_PATHS = {"store", "out", "train.config", "bench.kernelbench"}


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> AblateConfig:
    """Read the YAML file; ``overrides`` ({"bench.problems": "1-2", ...}) replace fields by dotted key
    (a path given this way is relative to the working directory)."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise AblateError(f"{path}: no such file")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise AblateError(f"{path}: not valid YAML ({' '.join(str(e).split())})") from None
    if not isinstance(raw, dict):
        raise AblateError(f"{path}: the config must be a YAML mapping")
    for key, val in (overrides or {}).items():
        if key in _CWD_PATHS and isinstance(val, str):
            val = os.path.abspath(os.path.expanduser(val))
        if key.startswith("train.set."):  # a training field for every arm: its dotted name is one key
            raw.setdefault("train", {}).setdefault("set", {})[key[len("train.set."):]] = val
            continue
        try:
            set_dotted(raw, key, val)
        except ConfigError as e:
            raise AblateError(str(e)) from None
    try:
        return parse_config(raw, base_dir=path.parent, source=path)
    except (AblateError, TypeError) as e:
        raise AblateError(f"{path}: {e}") from None
