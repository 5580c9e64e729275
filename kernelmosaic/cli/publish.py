"""``kmosaic tasks publish``: registered onto the ``tasks`` sub-app next to the curation commands
(kept in its own module so the curation commands and this one change independently)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ..task import TaskError
from .tasks import _fail, err, out


def register(app: typer.Typer) -> None:
    @app.command("publish")
    def publish_cmd(set_dir: Path = typer.Argument(..., help="Task-set folder."),
                    out_dir: Path = typer.Option(..., "--out", help="New folder: data/train-<sha256>.parquet and README.md (the dataset card)."),
                    license_id: str = typer.Option("apache-2.0", "--license", help="The card's licence field (a Hub licence id)."),
                    status: str = typer.Option("accepted,auto,pending", help="Publish tasks with these statuses (comma-separated)."),
                    decontam: Optional[Path] = typer.Option(None, help="Decontamination rows with the behavioural check (from `kmosaic tasks decontam SET --out FILE`); default SET/decontam.jsonl, else the rows a shipped set's manifest carries."),
                    pretty_name: Optional[str] = typer.Option(None, help="The card's title."),
                    json_out: bool = typer.Option(False, "--json")) -> None:
        """Write a folder that `datasets.load_dataset(DIR)` reads: parquet of task sources and metadata, plus a dataset card."""
        from ..curate.publish import publish

        try:
            summary = publish(set_dir, out_dir, license_id=license_id, decontam=decontam, pretty_name=pretty_name,
                              statuses=tuple(s.strip() for s in status.split(",") if s.strip()))
        except TaskError as e:
            _fail(f"{e.where}: {e.problem}")
        except ImportError as e:
            _fail(f"publish needs pyarrow: pip install 'kernelmosaic[data]' ({e})")
        if json_out:
            print(json.dumps(summary))
            return
        out.print(f"{summary['rows']} tasks of {summary['set']} -> {out_dir} ({summary['file']}, README.md; licence "
                  f"{license_id})" + (f"; {summary['left_out']} left out by status" if summary["left_out"] else ""))
        if not summary["behaviour_rows"]:
            err.print("[yellow]note:[/] no behavioural decontamination rows: the card says decontamination was lexical only "
                      "(run `kmosaic tasks decontam SET --out FILE` and pass --decontam FILE)")
