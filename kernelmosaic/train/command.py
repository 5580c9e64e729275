"""``kmosaic train``: the command's body (cli.py stays thin)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from .._json import finite
from .config import load_config, parse_overrides


def run_train(config: str | Path, *, resume: bool | str = False, overrides: list[str] | None = None) -> dict[str, Any] | None:
    """Load the config, train, and return a short summary (paths, losses) for the terminal;
    None on the other ranks of a multi-process launch."""
    from .sft import train

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = load_config(config, parse_overrides(overrides))
    res = train(cfg, resume=resume)
    if int(os.environ.get("RANK", "0")) != 0:
        return None
    losses = [h["loss"] for h in res.log_history if "loss" in h]
    return finite({
        "output_dir": str(res.output_dir), "final": str(res.final_dir),
        "merged": None if res.merged_dir is None else str(res.merged_dir),
        "packing": res.packing, "attn_implementation": res.attn_implementation, "resumed_from": res.resumed_from,
        "rows_truncated": res.n_truncated, "distributed": res.distributed, "world_size": res.world_size,
        "first_loss": losses[0] if losses else None, "last_loss": losses[-1] if losses else None,
        "eval_loss": res.metrics.get("eval_loss"), "train_runtime_s": res.metrics.get("train_runtime"),
    })
