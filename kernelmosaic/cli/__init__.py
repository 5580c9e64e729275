"""``kmosaic``: the command line. Thin: every command checks its input and calls a library
function; no other package imports this one.

* ``common``: consoles, failing with exit 2, the choices as enums, the shared option groups
  and the path checks.
* ``progress``: the one progress display for runs of many episodes, and Ctrl-C handling.
* ``verify`` (verify, baselines list|clear, tasks list|check), ``loop`` (solve, generate, bench, serve-scripted),
  ``data`` (export, train, report, guidance), ``tasks`` and ``publish`` (task-set curation),
  ``episode`` (episode ..., mcp), ``ablate`` (direct against iterative training).
"""

from __future__ import annotations

import sys

import typer

from . import ablate, data, episode, loop, publish, tasks, verify
from .common import INTERRUPTED, USAGE_ERROR, ctrl_c_stops, err

# rich_markup_mode=None: click's plain help, which wraps the help text but never truncates an
# option's name (rich's panels cut names like --max-total-tokens at 80 columns)
_TYPER = dict(no_args_is_help=True, rich_markup_mode=None)

app = typer.Typer(add_completion=True, help="KernelMosaic: verify CUDA kernels and generate repair trajectories with an LLM.",
                  **_TYPER)
tasks_app = typer.Typer(help="Task sets: list, check, curate (generate, filter, dedup, decontam, select, review, stats) and publish.",
                        **_TYPER)
guidance_app = typer.Typer(help="The CUDA guidance knowledge base: list, mine.", **_TYPER)
app.add_typer(tasks_app, name="tasks")
app.add_typer(guidance_app, name="guidance")

verify.register(app, tasks_app)
tasks.register(tasks_app)
publish.register(tasks_app)
loop.register(app)
data.register(app, guidance_app)
episode.register(app)  # kmosaic episode ..., kmosaic mcp
ablate.register(app)  # kmosaic ablate


def main() -> None:
    ctrl_c_stops()
    from ..verify import zygote

    try:
        zygote.setting()  # a mistyped KMOSAIC_ZYGOTE: one line now, not a traceback when a verifier starts
    except ValueError as e:
        err.print("[bold red]error:[/] ", end="")
        err.print(str(e), markup=False, highlight=False)
        sys.exit(USAGE_ERROR)
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(INTERRUPTED)


__all__ = ["app", "main"]
