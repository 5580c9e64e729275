"""The data side: ``export``, ``train``, ``report`` and ``guidance list|mine``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from .common import err, existing_store, fail, missing_extra, out, out_file, out_folder, view_enum

View = view_enum()




def export_cmd(
    store_path: Annotated[Path, typer.Option("--store", help="A store written by kmosaic generate.")],
    view: Annotated[View, typer.Option(help="iterative (multi-turn chat up to the best turn) | direct (prompt -> final code) | steps (single repair/optimize steps).")],
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for train.parquet, validation.parquet and README.md (the dataset card).")],
    run_id: Annotated[Optional[list[str]], typer.Option("--run-id", help="Only these runs (repeatable).")] = None,
    verified_only: Annotated[bool, typer.Option("--verified-only/--all", help="Keep only episodes whose best kernel is verified correct.")] = True,
    min_speedup: Annotated[Optional[float], typer.Option(min=0.0, help="Minimum best speedup over eager.")] = None,
    max_turns: Annotated[Optional[int], typer.Option(min=1, help="At most this many turns up to the best one.")] = None,
    stage: Annotated[Optional[list[str]], typer.Option("--stage", help="steps view: only these stages (repair, optimize).")] = None,
    val_fraction: Annotated[float, typer.Option(min=0.0, max=0.99, help="Share of tasks in the validation split (split by task).")] = 0.1,
    kernelbench: Annotated[Optional[str], typer.Option(envvar="KERNELBENCH_DIR", help="Drop examples whose task matches a KernelBench problem.")] = None,
    license_id: Annotated[Optional[str], typer.Option("--license", help="The card's licence field (a Hub licence id; default apache-2.0). A teacher model's terms may also apply.")] = None,
    history: Annotated[str, typer.Option(help="iterative view: recorded (the context the model saw at its best turn: the last turns verbatim, older ones summarized) | full (every turn up to the best one, verbatim; kmosaic train keeps what fits max_length, or data.history_turns).")] = "recorded",
    reasoning: Annotated[bool, typer.Option("--reasoning/--no-reasoning", help="Keep each reply's recorded thinking as the assistant message's reasoning_content.")] = False,
) -> None:
    """Export trajectories as parquet (train/validation split by task) with a dataset card."""
    from ..data import StoreError

    existing_store(store_path)
    out_folder(out_dir)
    try:
        from ..data.export import export
    except ImportError as e:
        missing_extra("export", "data", e)
    try:
        res = export(store_path, str(view), out_dir, run_ids=run_id or None, verified_only=verified_only,
                     min_speedup=min_speedup, max_turns=max_turns, stages=stage or None, val_fraction=val_fraction,
                     kernelbench_dir=kernelbench, card_info={"license": license_id} if license_id else None,
                     history=history, reasoning=reasoning)
    except (ValueError, StoreError) as e:
        fail(str(e))
    except ImportError as e:
        missing_extra("export", "data", e)
    table = Table("split", "rows", "tasks", title=f"{view} view -> {out_dir}")
    for split, n in res.counts.items():
        table.add_row(split, str(n), str(len(res.split_tasks.get(split, []))))
    out.print(table)
    for d in res.dropped:
        out.print(f"dropped {d.get('task')}: matches {d.get('kernelbench_file')} ({d.get('match')}, score {d.get('score', 0):.2f})",
                  markup=False, highlight=False)
    if res.n_filtered:
        out.print("filtered: " + ", ".join(f"{k} {v}" for k, v in res.n_filtered.items()), style="dim", markup=False)
    err.print("[yellow]warning:[/] ", end="")
    err.print(f"the card's licence is {license_id or 'apache-2.0 (the default; set it with --license)'}; "
              "the replies were written by the LLMs named in the card, and a teacher model's terms of use may "
              "restrict how its outputs are used, whatever the licence field says", markup=False, highlight=False)


def train_cmd(
    config: Annotated[Path, typer.Argument(metavar="CONFIG.yaml", help="Training config (YAML); see configs/train/ and docs/training.md.")],
    resume: Annotated[bool, typer.Option("--resume", help="Resume from the latest checkpoint in output_dir.")] = False,
    resume_from: Annotated[Optional[Path], typer.Option("--resume-from", help="Resume from this checkpoint folder.")] = None,
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="Override a config field: KEY=VALUE, e.g. sft.max_steps=5 (repeatable).")] = None,
) -> None:
    """Supervised fine-tuning (TRL SFTTrainer, LoRA or full) on an exported dataset. Multi-GPU: accelerate launch."""
    from ..train.command import run_train

    try:
        res = run_train(config, resume=str(resume_from) if resume_from else resume, overrides=set_)
    except (ValueError, TypeError) as e:  # ConfigError and bad SFTConfig values
        fail(" ".join(str(e).split())[:600])
    except ImportError as e:
        missing_extra("train", "train", e)
    except OSError as e:  # a model or tokenizer that cannot be found or read
        fail(" ".join(str(e).split())[:400])
    if res is not None:  # rank 0 of a multi-process launch speaks for all
        out.print(json.dumps(res, default=str), highlight=False)


def report(
    stores: Annotated[list[Path], typer.Argument(metavar="STORE", help="Stores (RUN.db) to report on, side by side; every run in each.")],
    out_dir: Annotated[Path, typer.Option("--out", help="Writes report.md, report.html and the plots here.")] = Path("report"),
    title: Annotated[str, typer.Option(help="Report title.")] = "KernelBench evaluation",
    shot: Annotated[bool, typer.Option("--screenshot", help="Also render report.png with a headless Chromium.")] = False,
) -> None:
    """Markdown and a self-contained HTML report: metrics per level, plots, trajectories."""
    from ..data import StoreError

    for p in stores:
        existing_store(p)
    out_folder(out_dir)
    try:
        from ..bench import ScreenshotError, screenshot, write_report
    except ImportError as e:
        missing_extra("the report", "bench", e)
    try:
        md, html = write_report([str(p) for p in stores], out_dir, title=title)
    except (ValueError, StoreError) as e:
        fail(str(e))
    except ImportError as e:
        missing_extra("the report", "bench", e)
    out.print(f"wrote {md} and {html}", highlight=False)
    if shot:
        try:
            png = screenshot(html, Path(out_dir) / "report.png")
            out.print(f"wrote {png}", highlight=False)
        except ScreenshotError as e:
            fail(str(e))


def guidance_list(category: Annotated[Optional[str], typer.Option(help="Only this category.")] = None) -> None:
    """The entries of the knowledge base."""
    from ..guidance import load_default

    kb = load_default()
    table = Table("id", "category", "title", title=f"guidance {kb.version}: {len(kb.entries)} entries")
    for e in kb.entries:
        if category is None or e.category == category:
            table.add_row(e.id, e.category, e.title)
    out.print(table)


def guidance_mine(
    store_path: Annotated[Path, typer.Option("--store", help="A store written by kmosaic generate.")],
    out_path: Annotated[Path, typer.Option("--out", help="Proposals for review.")] = Path("guidance-proposals.json"),
    run_id: Annotated[Optional[str], typer.Option(help="Only this run.")] = None,
    min_count: Annotated[int, typer.Option(min=1, help="Propose only errors seen at least this often.")] = 1,
) -> None:
    """Propose new entries from recorded repairs (an error, then the edit that fixed it).

    Proposals go to a review file; they are never merged into the knowledge base automatically."""
    from ..data import Store, StoreError
    from ..guidance import load_default, propose_entries, write_proposals

    existing_store(store_path)
    out_file(out_path)
    try:
        with Store(store_path) as st:
            pairs = list(st.repair_pairs(run_id))
    except StoreError as e:
        fail(str(e))
    proposals = propose_entries(pairs, load_default(), min_count=min_count)
    write_proposals(proposals, out_path)
    out.print(f"{len(pairs)} repair pairs, {len(proposals)} proposals for errors no entry covers -> {out_path}",
              highlight=False)


def register(app: typer.Typer, guidance_app: typer.Typer) -> None:
    app.command("export")(export_cmd)
    app.command("train")(train_cmd)
    app.command()(report)
    guidance_app.command("list")(guidance_list)
    guidance_app.command("mine")(guidance_mine)
