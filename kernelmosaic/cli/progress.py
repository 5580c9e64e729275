"""The one progress display for runs of many episodes (``generate`` and ``bench``), and the
Ctrl-C handling they share."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .common import err


class RunProgress:
    """Bars for baselines (when there are any) and episodes, with the counts of turns, correct
    and failed episodes. ``on_turn`` and ``on_episode`` are the controller's callbacks."""

    def __init__(self, console, total: int | None = None):
        self.prog = Progress(TextColumn("[bold]{task.description:<10}[/]"), BarColumn(), MofNCompleteColumn(),
                             TextColumn("{task.fields[status]}"), TimeElapsedColumn(), console=console)
        self.bars: dict[str, int] = {}
        self.counts = {"turns": 0, "correct": 0, "failed": 0}
        self._total = total
        self._warmed = 0

    def __enter__(self) -> "RunProgress":
        self.prog.__enter__()
        if self._total is not None:
            self.start(0, self._total)
        return self

    def __exit__(self, *exc) -> None:
        self.prog.__exit__(*exc)

    def print(self, *a, **kw) -> None:
        self.prog.console.print(*a, **kw)

    def _status(self) -> str:
        c = self.counts
        return f"{c['turns']} turns, {c['correct']} correct, {c['failed']} failed"

    # -- callbacks ----------------------------------------------------------------------------------
    def start(self, n_baselines: int, n_episodes: int) -> None:
        if n_baselines:
            self.bars["baselines"] = self.prog.add_task("baselines", total=n_baselines, status="eager + torch.compile")
        self.bars["episodes"] = self.prog.add_task("episodes", total=n_episodes, status="")

    def on_baseline(self, t, b, error) -> None:
        if error:
            self.print(f"[yellow]baseline failed[/] {escape(t.key)}: {escape(error[:300])}", highlight=False)
        if "baselines" in self.bars and not (b or {}).get("cached"):
            self.prog.advance(self.bars["baselines"])
            self.prog.update(self.bars["baselines"], status="timing eager + torch.compile")

    def on_warm(self, t, error) -> None:
        self._warmed += 1
        bar = self.bars["baselines"]
        self.prog.update(bar, status=f"torch.compile warm-up {self._warmed}/{self.prog.tasks[bar].total}")

    def on_turn(self, ep_id, turn) -> None:
        self.counts["turns"] += 1
        self.prog.update(self.bars["episodes"], status=self._status())

    def on_episode(self, ep_id, res, error) -> None:
        if res is not None and res.correct:
            self.counts["correct"] += 1
        if error:
            self.counts["failed"] += 1
            self.print(f"[red]episode {escape(ep_id)} failed:[/] {escape(error)}", highlight=False)
        self.prog.advance(self.bars["episodes"])
        self.prog.update(self.bars["episodes"], status=self._status())

    def on_protocol(self, t, verdict, done: int, total: int) -> None:
        """A turn judged again under another protocol (``bench --protocol``)."""
        bar = self.bars.get("protocol")
        if bar is None:
            bar = self.bars["protocol"] = self.prog.add_task(verdict.protocol, total=total, status="")
            self._again = 0
        self._again += int(verdict.correct)
        self.prog.update(bar, completed=done, status=f"{self._again} correct under {verdict.protocol}'s protocol")

    def stopping(self) -> None:
        if "episodes" in self.bars:
            self.prog.update(self.bars["episodes"], status=self._status() + " (stopping)")


@contextlib.contextmanager
def stop_on_ctrl_c(progress: RunProgress | None = None) -> Iterator[threading.Event]:
    """The first Ctrl-C sets the event: the controller starts no queued episode and lets the
    turns in flight finish and be committed. A second Ctrl-C quits at once (KeyboardInterrupt);
    what was committed stays committed."""
    stop = threading.Event()

    def handler(signum, frame) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        err.print("stopping: the turns in flight finish and are committed, queued episodes are cancelled "
                  "(Ctrl-C again to quit now; rerun with the same --run-id to resume)", highlight=False)
        if progress is not None:
            progress.stopping()

    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield stop
        return
    old = signal.signal(signal.SIGINT, handler)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, old)
