"""``kmosaic ablate CONFIG.yaml``: direct against iterative training, from a store to one report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import device_backend, err, fail, missing_extra, out


def ablate_cmd(
    config: Annotated[Path, typer.Argument(metavar="CONFIG.yaml", help="Ablation config (YAML); see configs/ablate/ and docs/reproduce.md.")],
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="Override a config field: KEY=VALUE, e.g. bench.problems=1-2 or train.set.sft.learning_rate=1e-3 (repeatable).")] = None,
) -> None:
    """Export matched direct and iterative datasets from one store, train both arms on an equal
    budget, bench both alike, and write ablation.md and ablation.json with bootstrap intervals."""
    import logging

    from ..ablate import AblateError, load_config, run_ablation
    from ..data import StoreError
    from ..task import TaskError
    from ..train.config import ConfigError, parse_overrides

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load_config(config, parse_overrides(set_))
    except (AblateError, ConfigError) as e:
        fail(str(e))
    try:
        cfg.bench.device, cfg.bench.backend = device_backend(cfg.bench.device, cfg.bench.backend)
    except ValueError as e:
        fail(f"bench: {e}")
    try:
        res = run_ablation(cfg, on_event=lambda m: out.print(m, markup=False, highlight=False))
    except (ValueError, StoreError, TaskError) as e:  # AblateError and ConfigError are ValueErrors
        fail(" ".join(str(e).split())[:800])
    except ImportError as e:
        missing_extra("ablate", "train", e)
    except OSError as e:
        fail(" ".join(str(e).split())[:400])
    out.print(f"report: {res.report_md}", highlight=False)
    err.print("the report states the budget and protocol each arm ran with; random-init models give numbers "
              "that test the pipeline only", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("ablate")(ablate_cmd)
