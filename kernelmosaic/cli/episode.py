"""``kmosaic mcp`` and ``kmosaic episode start|submit|status|best|finish``: thin commands over
:class:`kernelmosaic.agent.external.Workbench`.

The step commands speak the same protocol as the MCP server, through files and exit codes.
With ``--dir D``, ``start`` gives each episode a folder ``D/<episode>/`` holding
``episode.json``, ``prompt.md`` and ``task.md`` (the first prompt, kept); the agent writes
``candidate.py`` there, and that file is a pending submission until ``submit`` verifies it (it
then becomes ``turn-<n>.py``; ``feedback.md``, ``prompt.md`` and ``best.py`` are rewritten, and
``feedback-<n>.md`` keeps each turn's verdict, so the folder is the whole episode for whoever
picks it up). ``submit --all`` verifies
every pending submission under ``D`` in one call: a batch of episodes moves one turn. Each
verdict is recorded and written to its folder as it comes, so a batch cut short keeps what it
reached.

Bad input (unknown or finished episode, missing file, empty candidate) is one line on stderr
and exit code 2. A verdict of any kind is a normal result (exit 0).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from .common import auto_device, device_backend, fail, lane_options, read_source

out = Console(soft_wrap=True, emoji=False, highlight=False)
err = Console(stderr=True, soft_wrap=True, emoji=False, highlight=False)

CANDIDATE = "candidate.py"
EPISODE_FILE = "episode.json"
TASK_FILE = "task.md"
_fail = fail


def _settings(device, backend, policy, max_repair, max_optimize, trials, timing, timing_runs, compile_baseline,
              profile):
    from ..verify import POLICIES, TimingConfig
    from ..agent.external import Settings

    try:
        device, backend = device_backend(device, backend)
    except ValueError as e:
        _fail(str(e))
    if policy not in POLICIES:
        _fail(f"--policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    return Settings(device=device, backend=backend, policy=policy, max_repair=max_repair, max_optimize=max_optimize,
                    trials=trials, timing=TimingConfig(enabled=timing, n=timing_runs, compile=compile_baseline),
                    profile=profile)


def _workbench(store: Path, settings=None, *, kernelbench=None, tasksets=None, run_id=None, workers=None,
               lanes_per_gpu: int = 1, interface="cli"):
    from ..agent.external import ExternalError, Settings, Workbench

    opts = {"workers": workers} if workers else {}
    opts.update(lane_options((settings or Settings()).device, lanes_per_gpu))
    try:
        return Workbench(store, settings or Settings(), kernelbench=kernelbench,
                         tasksets=[Path(t) for t in tasksets] if tasksets else None, run_id=run_id,
                         verifier_options=opts, interface=interface)
    except ExternalError as e:
        _fail(str(e))


def _existing_store(store: Path) -> None:
    if not store.is_file():
        _fail(f"{store}: no such store (start an episode first)")


def _slug(episode_id: str, task: str) -> str:
    digest = episode_id.rsplit("#", 1)[-1]
    sample = episode_id.rsplit("#", 1)[0].rsplit("/", 1)[-1]
    return f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', task)}.{sample}.{digest}"


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _episode_arg(arg: str) -> tuple[str, Path | None]:
    """An episode id, or an episode folder (its episode.json names the id)."""
    p = Path(arg)
    if p.is_dir():
        f = p / EPISODE_FILE
        if not f.is_file():
            _fail(f"{p}: not an episode folder (no {EPISODE_FILE})")
        try:
            return json.loads(f.read_text())["episode_id"], p
        except (ValueError, KeyError):
            _fail(f"{f}: not an episode file")
    return arg, None


SHARED = dict(
    store=typer.Option(..., "--store", help="SQLite store the episodes are recorded in (created on first use)."),
    json_out=typer.Option(False, "--json", help="One JSON object (a list for a batch) on stdout, for agents."),
    lanes_per_gpu=typer.Option(1, "--lanes-per-gpu", min=1, help="Judges sharing each GPU (default 1): their builds and "
                               "checks overlap, and each timed loop still has the GPU alone (docs/verification.md)."),
)


def register(app: typer.Typer) -> None:
    episode_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Drive an episode from outside, one command per turn "
                              "(the MCP server's protocol as commands and files).")
    app.add_typer(episode_app, name="episode")

    @episode_app.command("start")
    def start_cmd(
        task: str = typer.Argument(..., help="SET/NAME (a task set), L<level>/<id> (KernelBench) or a task file."),
        store: Path = SHARED["store"],
        agent: str = typer.Option(..., "--agent", envvar="KMOSAIC_AGENT", help="The coding agent, NAME/VERSION; recorded as policy external:NAME/VERSION."),
        work_dir: Optional[Path] = typer.Option(None, "--dir", help="Give the episode a folder here (prompt.md in, candidate.py out)."),
        device: Optional[str] = typer.Option(None, help="cuda | cpu (default: cuda when a GPU is present)."),
        backend: Optional[str] = typer.Option(None, help="cuda | nvrtc | triton | cpp"),
        policy: str = typer.Option("strict", help="Verifier policy: strict | kernelbench."),
        max_repair: int = typer.Option(4, min=0, help="Repair turns at most."),
        max_optimize: int = typer.Option(2, min=0, help="Optimization turns at most."),
        trials: int = typer.Option(5, min=1, help="Correctness trials per candidate."),
        timing: bool = typer.Option(True, "--timing/--no-timing"),
        timing_runs: int = typer.Option(30, min=1, help="Timed calls per variant."),
        compile_baseline: bool = typer.Option(True, "--compile-baseline/--no-compile-baseline"),
        profile: bool = typer.Option(True, "--profile/--no-profile", help="Nsight Compute metrics in the feedback of correct kernels on optimize turns (GPU)."),
        run_id: Optional[str] = typer.Option(None, help="Record in this run (default: one run per agent)."),
        kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="KernelBench directory for L<level>/<id>."),
        tasksets: Optional[list[Path]] = typer.Option(None, "--tasksets", help="A task set, or a folder of them (default: ./tasksets)."),
        json_out: bool = SHARED["json_out"],
    ) -> None:
        """Start an episode; prints its id and the first prompt. The settings stay with the episode."""
        from ..agent.external import ExternalError

        st = _settings(device, backend, policy, max_repair, max_optimize, trials, timing, timing_runs,
                       compile_baseline, profile)
        if work_dir is not None and work_dir.exists() and not work_dir.is_dir():
            _fail(f"--dir {work_dir}: not a folder")
        with _workbench(store, st, kernelbench=kernelbench, tasksets=tasksets, run_id=run_id) as wb:
            try:
                r = wb.start(task, agent)
            except ExternalError as e:
                _fail(str(e))
        if work_dir is not None:
            d = work_dir / _slug(r["episode_id"], r["task"])
            d.mkdir(parents=True, exist_ok=True)
            _write(d / EPISODE_FILE, json.dumps({"episode_id": r["episode_id"], "store": str(store.resolve()),
                                                 "task": r["task"]}, indent=1) + "\n")
            first = f"{r['system']}\n\n{r['prompt']}\n"
            _write(d / "prompt.md", first)
            # prompt.md is rewritten each turn; task.md keeps the first prompt (the task, the
            # backend's rules), so that a new agent session can take the folder over
            _write(d / TASK_FILE, first)
            r["dir"] = str(d)
        if json_out:
            print(json.dumps(r))
            return
        out.print(f"episode_id: {r['episode_id']}")
        if work_dir is not None:
            out.print(f"folder: {r['dir']} (write {CANDIDATE} there, then: kmosaic episode submit --store {store} {r['dir']})")
        out.print(f"\n{r['system']}\n\n{r['prompt']}", markup=False)

    @episode_app.command("submit")
    def submit_cmd(
        episodes: Optional[list[str]] = typer.Argument(None, help="Episode ids or episode folders (a folder's candidate.py is its submission)."),
        store: Path = SHARED["store"],
        file: Optional[Path] = typer.Option(None, "--file", "-f", help="The candidate for a single episode id."),
        all_pending: bool = typer.Option(False, "--all", help="Every pending candidate.py under --dir, in one batch."),
        work_dir: Optional[Path] = typer.Option(None, "--dir", help="The folder `start --dir` wrote into (with --all)."),
        agent: Optional[str] = typer.Option(None, "--agent", envvar="KMOSAIC_AGENT", help="Who submits (recorded on the turn when it differs from the episode's agent)."),
        device: Optional[str] = typer.Option(None, help="cuda | cpu (must suit the episodes' backend; default: cuda when a GPU is present)."),
        workers: Optional[int] = typer.Option(None, min=1, help="Verifier lanes (default: one per GPU, or one per CPU core)."),
        lanes_per_gpu: int = SHARED["lanes_per_gpu"],
        json_out: bool = SHARED["json_out"],
    ) -> None:
        """Verify submissions and record them as turns; prints verdict, feedback, guidance and the next prompt."""
        from ..agent.external import ExternalError, Settings, policy_name

        _existing_store(store)
        items: list[tuple[str, str, Path | None]] = []  # (episode id, candidate text, folder)
        if all_pending:
            if episodes or file:
                _fail("--all takes no episode arguments and no --file")
            if work_dir is None or not work_dir.is_dir():
                _fail("--all needs --dir: the folder `kmosaic episode start --dir` wrote into")
            folders = sorted(p.parent for p in work_dir.glob(f"*/{CANDIDATE}") if (p.parent / EPISODE_FILE).is_file())
            if not folders:
                _fail(f"no pending submissions under {work_dir} (no */{CANDIDATE} next to an {EPISODE_FILE})")
            episodes = [str(f) for f in folders]
        if not episodes:
            _fail("name an episode (id or folder), or use --all --dir DIR")
        if file is not None and len(episodes) != 1:
            _fail("--file goes with exactly one episode")
        for e in episodes:
            eid, folder = _episode_arg(e)
            src = file if file is not None else (folder / CANDIDATE if folder is not None else None)
            if src is None:
                _fail(f"{e}: give the candidate with --file, or pass the episode folder")
            try:
                items.append((eid, read_source(src), folder))
            except ValueError as e:
                _fail(str(e))
        st = Settings(device=device or auto_device())
        with _workbench(store, st, workers=workers, lanes_per_gpu=lanes_per_gpu) as wb:

            def written(i: int, r: dict) -> None:
                # each verdict's files as soon as its turn is recorded: a batch cut short leaves
                # every folder it reached consistent with the store
                eid, text, folder = items[i]
                if "error" not in r and folder is not None:
                    _write_turn_files(folder, r, text, wb.best(eid)["code"])

            try:
                results = wb.submit_many([(eid, text) for eid, text, _ in items],
                                         agent=policy_name(agent) if agent else None, on_result=written)
            except ExternalError as e:
                _fail(str(e))
            bad = sum("error" in r for r in results)
        if json_out:
            print(json.dumps(results[0] if len(results) == 1 and not all_pending else results, default=str))
        else:
            from ..agent.external import render_submit

            for r in results:
                if "error" in r:
                    err.print(f"[bold red]error:[/] {r['episode_id']}: {r['error']}", markup=True)
                else:
                    out.print(render_submit(r), markup=False)
                    out.print("")
        if bad:
            raise typer.Exit(2)

    @episode_app.command("status")
    def status_cmd(
        episode: Optional[str] = typer.Argument(None, help="Episode id or folder (default: list every episode)."),
        store: Path = SHARED["store"],
        json_out: bool = SHARED["json_out"],
    ) -> None:
        """Where an episode stands (turns, budgets, best, next prompt), or every episode in the store."""
        from ..agent.external import render_status

        if episode is not None:
            _, _, r = _on_episode(store, episode, lambda wb, eid: wb.status(eid))
            _print(r, json_out, render_status)
            return
        _existing_store(store)
        with _workbench(store) as wb:
            eps = wb.episodes()
        if json_out:
            print(json.dumps(eps))
            return
        for e in eps:
            out.print(f"{e['episode_id']}  {e['status']}  {e['turns']} turns" + ("  correct" if e["correct"] else ""))
        out.print(f"{len(eps)} episodes")

    @episode_app.command("best")
    def best_cmd(
        episode: str = typer.Argument(..., help="Episode id or folder."),
        store: Path = SHARED["store"],
        out_file: Optional[Path] = typer.Option(None, "--out", help="Write the best kernel here."),
        json_out: bool = SHARED["json_out"],
    ) -> None:
        """The best correct kernel so far; exit 1 when there is none."""
        eid, _, r = _on_episode(store, episode, lambda wb, eid: wb.best(eid))
        if out_file is not None and r["code"]:
            _write(out_file, r["code"])
        if json_out:
            print(json.dumps(r, default=str))
        elif r["code"]:
            out.print(r["code"] if out_file is None else f"wrote {out_file} (turn {r['best']['turn']})", markup=False)
        else:
            out.print(f"episode {eid}: no correct kernel yet")
        raise typer.Exit(0 if r["code"] else 1)

    @episode_app.command("finish")
    def finish_cmd(
        episode: str = typer.Argument(..., help="Episode id or folder."),
        store: Path = SHARED["store"],
        json_out: bool = SHARED["json_out"],
    ) -> None:
        """End an episode; its best correct kernel is kept. Finishing a finished episode only reports it."""
        from ..agent.external import render_status

        _, folder, (r, b) = _on_episode(store, episode, lambda wb, eid: (wb.finish(eid), wb.best(eid)))
        if folder is not None and b["code"]:
            _write(folder / "best.py", b["code"])
        _print(r, json_out, render_status)

    @app.command("mcp")
    def mcp_cmd(
        store: Path = SHARED["store"],
        transport: str = typer.Option("stdio", help="stdio | http (streamable HTTP at http://HOST:PORT/mcp)."),
        host: str = typer.Option("127.0.0.1", help="http: address to listen on."),
        port: int = typer.Option(8765, help="http: port."),
        device: Optional[str] = typer.Option(None, help="cuda | cpu (default: cuda when a GPU is present)."),
        backend: Optional[str] = typer.Option(None, help="cuda | nvrtc | triton | cpp"),
        policy: str = typer.Option("strict", help="Verifier policy: strict | kernelbench."),
        max_repair: int = typer.Option(4, min=0, help="Repair turns at most."),
        max_optimize: int = typer.Option(2, min=0, help="Optimization turns at most."),
        trials: int = typer.Option(5, min=1),
        timing: bool = typer.Option(True, "--timing/--no-timing"),
        timing_runs: int = typer.Option(30, min=1, help="Timed calls per variant."),
        compile_baseline: bool = typer.Option(True, "--compile-baseline/--no-compile-baseline"),
        profile: bool = typer.Option(True, "--profile/--no-profile", help="Nsight Compute metrics on optimize turns (GPU)."),
        workers: Optional[int] = typer.Option(None, min=1, help="Verifier lanes (default: one per GPU, or one per CPU core)."),
        lanes_per_gpu: int = SHARED["lanes_per_gpu"],
        run_id: Optional[str] = typer.Option(None, help="Record in this run (default: one run per MCP client)."),
        kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="KernelBench directory (levels 1-3 are listed)."),
        tasksets: Optional[list[Path]] = typer.Option(None, "--tasksets", help="A task set, or a folder of them (default: ./tasksets)."),
    ) -> None:
        """An MCP server: any coding agent drives episodes (list/read tasks, start, submit, best, finish)."""
        if transport not in ("stdio", "http"):
            _fail(f"--transport must be stdio or http, not {transport!r}")
        try:
            from ..agent.mcp_server import serve
        except ImportError as e:
            _fail(f"kmosaic mcp needs the MCP SDK: pip install 'kernelmosaic[agent]' ({e})")
        st = _settings(device, backend, policy, max_repair, max_optimize, trials, timing, timing_runs,
                       compile_baseline, profile)
        wb = _workbench(store, st, kernelbench=kernelbench, tasksets=tasksets, run_id=run_id, workers=workers,
                        lanes_per_gpu=lanes_per_gpu, interface="mcp")
        if transport == "http":
            err.print(f"kmosaic mcp: streamable HTTP at http://{host}:{port}/mcp (store {store})")
        try:
            serve(wb, transport, host, port)
        finally:
            wb.close()


def _on_episode(store: Path, episode: str, fn):
    """(episode id, its folder or None, fn(workbench, id)) for one existing episode; exit 2 on bad input."""
    from ..agent.external import ExternalError

    _existing_store(store)
    eid, folder = _episode_arg(episode)
    with _workbench(store) as wb:
        try:
            return eid, folder, fn(wb, eid)
        except ExternalError as e:
            _fail(str(e))


def _print(r: dict, json_out: bool, render) -> None:
    if json_out:
        print(json.dumps(r, default=str))
    else:
        out.print(render(r), markup=False)


def _write_turn_files(folder: Path, r: dict, text: str, best_code: str | None) -> None:
    """The submission becomes turn-<n>.py; feedback.md (kept as feedback-<n>.md too) and
    prompt.md say what comes next, best.py holds the best correct kernel so far."""
    from ..agent.external import render_submit

    _write(folder / f"turn-{r['turn']}.py", text)
    (folder / CANDIDATE).unlink(missing_ok=True)
    feedback = render_submit(r) + "\n"
    _write(folder / "feedback.md", feedback)
    _write(folder / f"feedback-{r['turn']}.md", feedback)  # the folder keeps every turn's verdict
    if best_code:
        _write(folder / "best.py", best_code)
    if r.get("next_prompt"):
        _write(folder / "prompt.md", r["next_prompt"] + "\n")
    else:
        (folder / "prompt.md").unlink(missing_ok=True)
        _write(folder / "DONE", (r.get("stopped") or "finished") + "\n")
