"""``kmosaic train``: the command's body (cli.py stays thin)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from .._json import finite
from .config import ConfigError, load_config, parse_overrides, sft_field_names


def rank() -> int:
    """This process's rank in a multi-process launch (torchrun/accelerate set RANK); 0 alone."""
    return int(os.environ.get("RANK", "0") or 0)


def check_fast(cfg, resume: bool | str) -> None:
    """What can be checked in a moment is checked before trl and torch load (30-40 s)."""
    if resume and resume is not True and not Path(str(resume)).is_dir():
        raise ConfigError(f"--resume-from {resume}: no such checkpoint folder")
    known = sft_field_names()
    unknown = sorted(set(cfg.sft) - known) if known else []
    if unknown:
        raise ConfigError(f"unknown sft field(s): {', '.join(unknown)} (see trl.SFTConfig)")
    for f in (cfg.train_file, cfg.validation_file):
        if f is not None and not f.is_file():
            raise ConfigError(f"data file {f} does not exist (run `kmosaic export` first)")


def run_train(config: str | Path, *, resume: bool | str = False, overrides: list[str] | None = None) -> dict[str, Any] | None:
    """Load the config, train, and return a short summary (paths, losses) for the terminal;
    None on the other ranks of a multi-process launch."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = load_config(config, parse_overrides(overrides))
    check_fast(cfg, resume)
    from .sft import train

    res = train(cfg, resume=resume)
    if rank() != 0:
        return None
    losses = [h["loss"] for h in res.log_history if "loss" in h]
    return finite({
        "output_dir": str(res.output_dir), "final": str(res.final_dir),
        "merged": None if res.merged_dir is None else str(res.merged_dir),
        "packing": res.packing, "attn_implementation": res.attn_implementation, "resumed_from": res.resumed_from,
        "rows_truncated": res.n_truncated, "distributed": res.distributed, "world_size": res.world_size,
        "first_loss": losses[0] if losses else None, "last_loss": losses[-1] if losses else None,
        "eval_loss": res.metrics.get("eval_loss"), "train_runtime_s": res.metrics.get("train_runtime"),
        "targets": res.targets,
    })
