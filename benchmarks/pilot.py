"""Issue 20's pilot: a coding agent drives episodes through ``kmosaic episode`` (the step CLI),
and the H200 verifies them in rounds.

The agent works on this machine (no GPU). It reads each episode folder's ``prompt.md`` and
writes ``candidate.py``. A round copies the working tree to the GPU machine, runs
``kmosaic episode submit --all`` there (the same command a user runs), and brings the store
and the folders back; ``absorb`` merges them into the local copy without touching a
candidate the agent wrote while the round ran. So the agent sees exactly what the interface
shows, one verified turn per round, and the GPU is held only while it verifies.

    python benchmarks/pilot.py start --root R --agent NAME/VERSION      # here: episodes and plan
    python benchmarks/pilot.py baselines --root R                        # GPU: eager + torch.compile, once
    python benchmarks/pilot.py round --root R                            # GPU: verify every pending candidate
    python benchmarks/pilot.py absorb --root R --from DIR                # here: merge a round's output
    python benchmarks/pilot.py close --root R --why TEXT                 # here: the pilot's end (the operator's)

The round's state lives under R (stores and folders) and $KMOSAIC_CACHE_DIR (baselines,
ceilings, vendor kernel tables), which the GPU command carries in and out as one tar file.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# ≥ 8 categories, all three dtypes, simple to hard; three per category (one per dtype where
# the set has it), fusion five. Chosen by hand from mosaic-v1's manifest before any episode ran.
MOSAIC = {
    "elementwise": 3, "activation": 3, "fusion": 5, "normalization": 3, "reduction": 3, "softmax": 3,
    "loss": 3, "pooling": 3, "scan": 3, "indexing": 3, "matmul": 3, "sort": 3, "attention": 3,
}
# KernelBench L1/L2 problems for the agent-mode bench (bench only: never exported for training)
KB = ["L1/19", "L1/20", "L1/21", "L1/23", "L1/24", "L1/25", "L1/26", "L1/29", "L1/31", "L1/36", "L1/38",
      "L1/39", "L1/47", "L1/48", "L1/88", "L1/94", "L2/12", "L2/14", "L2/29", "L2/40"]
BACKENDS = ["nvrtc", "cuda", "nvrtc", "triton"]  # by position: half nvrtc, a quarter each cuda and triton


def pick_mosaic(manifest: Path) -> list[str]:
    rows = [json.loads(line) for line in manifest.read_text().splitlines() if line.strip()]
    out = []
    for cat, n in MOSAIC.items():
        rs = [r for r in rows if r["category"] == cat and r.get("status") in (None, "auto", "accepted")]
        if cat == "fusion":  # short chains without convolutions: a pilot, not a stress test
            rs = [r for r in rs if len(r["ops"]) <= 3 and not any("conv" in o for o in r["ops"])]
        rs.sort(key=lambda r: r["name"])
        chosen: list[dict] = []
        for i in range(n):
            want = ("fp32", "fp16", "bf16")[i % 3]
            r = next((r for r in rs if r["dtypes"][0] == want and r not in chosen), None) or \
                next((r for r in rs if r not in chosen), None)
            if r is not None:
                chosen.append(r)
        out += [f"mosaic-v1/{r['name']}" for r in chosen]
    return out


def _kmosaic(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelmosaic.cli", *args], text=True, capture_output=True, **kw)


def cmd_start(a) -> None:
    root = Path(a.root)
    plan = {"agent": a.agent, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "episodes": []}
    groups = [("mosaic", pick_mosaic(HERE / "tasksets/mosaic-v1/manifest.jsonl")), ("kernelbench", KB)]
    for part, specs in groups:
        (root / part).mkdir(parents=True, exist_ok=True)
        for i, spec in enumerate(specs):
            backend = BACKENDS[i % len(BACKENDS)] if part == "mosaic" else ("nvrtc" if i % 2 == 0 else "cuda")
            p = _kmosaic("episode", "start", spec, "--store", str(root / part / "store.sqlite"), "--dir",
                         str(root / part / "episodes"), "--agent", a.agent, "--device", "cuda", "--backend", backend,
                         "--policy", "strict", "--json", env={**os.environ, **({"KERNELBENCH_DIR": a.kernelbench} if a.kernelbench else {})})
            if p.returncode != 0:
                sys.exit(f"start {spec}: {p.stderr.strip()}")
            r = json.loads(p.stdout)
            plan["episodes"].append({"part": part, "spec": spec, "backend": backend, "episode_id": r["episode_id"],
                                     "dir": str(Path(r["dir"]).relative_to(root))})
            print(part, spec, backend, r["dir"])
    (root / "plan.json").write_text(json.dumps(plan, indent=1) + "\n")


def _workbench(store: Path):
    from kernelmosaic.agent.external import Workbench

    return Workbench(store, kernelbench=os.environ.get("KERNELBENCH_DIR"), tasksets=[HERE / "tasksets"])


def _episodes(wb):
    """(episode, task, the settings it started with) for every episode of the workbench's store."""
    from kernelmosaic.agent.external import config_from_dict

    for e in (e for rid in wb.store.run_ids() for e in wb.store.episodes(rid)):
        ext = (e.meta or {}).get("external") or {}
        yield e, wb.resolve_task(ext["task_spec"]), config_from_dict(ext.get("config") or {})


def _episode_tasks(store: Path):
    """(task, timing config) of every episode in a store."""
    with _workbench(store) as wb:
        return [(task, cfg.timing) for _, task, cfg in _episodes(wb)]


def cmd_baselines(a) -> None:
    """Eager and torch.compile times of the tasks a round will verify next (``--limit`` pending
    folders, in the round's order), measured ahead: compiled in parallel lanes, then timed one
    at a time. The round then only verifies."""
    from kernelmosaic.bench.baselines import measure_baselines
    from kernelmosaic.verify import Verifier

    root = Path(a.root)
    todo = _round_order(root)[: a.limit]
    with Verifier(device="cuda") as v:
        for part in ("mosaic", "kernelbench"):
            store = root / part / "store.sqlite"
            wanted = {json.loads((f / "episode.json").read_text())["task"] for p, f in todo if p == part}
            if not wanted or not store.is_file():
                continue
            groups: dict[str, tuple] = {}
            for t, timing in _episode_tasks(store):
                if t.key in wanted:
                    groups.setdefault(repr(timing), (timing, {}))[1][t.key] = t
            for timing, tasks in groups.values():
                t0 = time.perf_counter()
                got = measure_baselines(list(tasks.values()), v, timing, warm_lanes=a.warm_lanes,
                                        on_result=lambda t, b, err: print(f"  {t.key}: " + (err or f"eager {b['eager_ms']:.3f} ms, compile {b.get('compile_ms')} ms"), flush=True))
                print(f"{part}: {len(got)}/{len(tasks)} baselines in {time.perf_counter() - t0:.0f} s", flush=True)


def _repair(folder: Path) -> bool:
    """Whether the folder's pending candidate is a repair: its last verdict was not correct."""
    fb = folder / "feedback.md"
    return fb.is_file() and not fb.read_text().split("\n", 1)[0].rstrip().endswith(": CORRECT")


def _round_order(root: Path) -> list[tuple[str, Path]]:
    """Pending folders as a round takes them: repairs first (the turns the data is shortest of),
    then other episodes already under way (an optimization), then new ones; mosaic before
    KernelBench."""
    out = []
    for part in ("mosaic", "kernelbench"):
        for c in (root / part / "episodes").glob("*/candidate.py"):
            out.append((part, c.parent))
    return sorted(out, key=lambda pf: (not _repair(pf[1]), not any(pf[1].glob("turn-*.py")), pf[0] != "mosaic",
                                       pf[1].name))


# A batch's fixed cost on the H200 in the pilot: the submit process, the verifier's start and
# the cuda-backend builds (64 s each, in parallel, overlapping the first verdicts). A per-item
# rate alone let round 8 start a batch of 5 it could not finish (rounds.jsonl, 2026-12-03).
BATCH_FIXED_S = 45.0
MARGIN = 1.2


def plan_batch(n_pending: int, t_left: float, per_item: float, batch: int) -> int:
    """How many of ``n_pending`` folders the next batch takes: at most ``batch``, and only as many
    as ``BATCH_FIXED_S + per_item * n`` (with a margin) fits in ``t_left``; 0 when none does."""
    fits = int((t_left / MARGIN - BATCH_FIXED_S) // max(per_item, 1e-3))
    return max(0, min(n_pending, batch, fits))


def cmd_round(a) -> None:
    """Every pending candidate of each part, verified by the step CLI in batches of folders; a
    batch is cut to what can finish before ``--deadline-s`` (``plan_batch``), and none starts
    that could not. (A batch cut off by the command's timeout keeps the verdicts it reached, but
    those still being judged are lost work.)"""
    root = Path(a.root)
    log = root / "rounds.jsonl"
    t_end = time.monotonic() + a.deadline_s
    per_item = 6.0  # seconds per candidate beyond the batch's fixed cost, until a batch measures it
    queue = list(_round_order(root))
    lanes = ["--lanes-per-gpu", str(a.lanes_per_gpu)] if a.lanes_per_gpu > 1 else []
    while queue:
        part = queue[0][0]
        same = [f for p, f in queue if p == part]
        n = plan_batch(len(same), t_end - time.monotonic(), per_item, a.batch)
        if n == 0:
            print(f"{len(queue)} pending left for the next round (deadline)", flush=True)
            break
        chunk = same[:n]
        queue = [(p, f) for p, f in queue if f not in chunk]
        t0 = time.perf_counter()
        p = _kmosaic("episode", "submit", "--store", str(root / part / "store.sqlite"), *map(str, chunk),
                     "--device", "cuda", *lanes, "--json")
        wall = time.perf_counter() - t0
        per_item = max(0.5, (wall - BATCH_FIXED_S) / len(chunk))
        try:
            results = json.loads(p.stdout)
            results = results if isinstance(results, list) else [results]
        except ValueError:
            results = []
        statuses = [(r.get("verdict") or {}).get("status") if isinstance(r.get("verdict"), dict) else r.get("error")
                    for r in results]
        rec = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "part": part, "batch": len(chunk),
               "rc": p.returncode, "wall_s": round(wall, 1), "statuses": statuses,
               "profile": os.environ.get("KMOSAIC_PROFILE", ""), "lanes_per_gpu": a.lanes_per_gpu}
        with log.open("a") as f:
            f.write(json.dumps(rec) + "\n")
        print(json.dumps(rec), flush=True)
        if p.returncode != 0:
            print(p.stderr[-3000:], flush=True)


def _copy_store(src: Path, dst: Path) -> None:
    """A consistent copy of a SQLite store through SQLite's backup API, its write-ahead log
    included: a round cut off by its time limit leaves its last turns in ``store.sqlite-wal``,
    which a plain file copy of the store drops (it did, once: 4 turns, restored from the tar)."""
    import sqlite3

    tmp = dst.with_name(dst.name + ".absorb")
    tmp.unlink(missing_ok=True)
    a, b = sqlite3.connect(src), sqlite3.connect(tmp)
    try:
        a.backup(b)
    except sqlite3.DatabaseError as e:  # the local store is left as it was
        tmp.unlink(missing_ok=True)
        sys.exit(f"{src}: not a readable SQLite store ({e}); nothing was absorbed from it")
    finally:
        a.close()
        b.close()
    os.replace(tmp, dst)


def cmd_absorb(a) -> None:
    """Merge a round's output (a tar of R, or its extracted folder) into the local R: the stores
    and each episode folder's new files; a local candidate.py is removed only where the round
    consumed exactly that text (it became a turn), so a newer one stays pending."""
    root = Path(a.root)
    src = Path(getattr(a, "from"))
    if not src.exists():
        sys.exit(f"--from {src}: no such file or folder (a round's pilot.tgz, or where it was extracted)")
    tmp = None
    if src.is_file():
        tmp = Path(tempfile.mkdtemp())
        with tarfile.open(src) as tf:
            tf.extractall(tmp, filter="data")
        src = next((p.parent for p in tmp.rglob("plan.json")), tmp)  # the tar holds the path it was made from
    try:
        for part in ("mosaic", "kernelbench"):
            s, d = src / part, root / part
            if not (s / "store.sqlite").is_file():
                continue
            _copy_store(s / "store.sqlite", d / "store.sqlite")
            for folder in sorted((s / "episodes").iterdir()):
                local = d / "episodes" / folder.name
                local.mkdir(parents=True, exist_ok=True)
                new_turns = []
                for f in folder.iterdir():
                    if f.name == "candidate.py":
                        continue
                    target = local / f.name
                    if not target.exists():
                        if f.name.startswith("turn-"):
                            new_turns.append(f)
                        shutil.copy2(f, target)
                    elif not filecmp.cmp(f, target, shallow=False):
                        shutil.copy2(f, target)
                if not (folder / "prompt.md").exists():  # the round ended the episode
                    (local / "prompt.md").unlink(missing_ok=True)
                cand = local / "candidate.py"
                if cand.exists() and any(filecmp.cmp(cand, t, shallow=False) for t in new_turns):
                    cand.unlink()
        rounds = src / "rounds.jsonl"
        if rounds.is_file():
            shutil.copy2(rounds, root / "rounds.jsonl")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    pend = len(list(root.glob("*/episodes/*/candidate.py")))
    done = len(list(root.glob("*/episodes/*/DONE")))
    print(f"absorbed: {pend} candidates pending, {done} episodes done")


def cmd_kbjudge(a) -> None:
    """The KernelBench episodes' best turns (or last, where none is correct), judged again under
    KernelBench's own protocol (its seeds, inputs, tolerances and timing) and recorded beside the
    turns' verdicts, as ``kmosaic bench --protocol kernelbench`` records them. Only these turns:
    a whole rejudge costs more GPU time than the pilot has. ``--lanes-per-gpu``: judges sharing the
    GPU; KernelBench's inputs are made by the CPU generator on one core (up to ~12 s a trial for
    the largest L1 inputs), so lanes overlap that while timing stays exclusive (verify/quiet)."""
    from kernelmosaic.data.best import best_turn
    from kernelmosaic.task import TaskError
    from kernelmosaic.verify import Verifier
    from kernelmosaic.verify.verifier import VerifyRequest

    again = {k.strip() for k in a.again.split(",") if k.strip()}
    if again and not (a.why or "").strip():
        sys.exit("--again needs --why: the reason is recorded with each verdict it supersedes")
    store = Path(a.root) / "kernelbench" / "store.sqlite"
    with contextlib.ExitStack() as stack, _workbench(store) as wb:
        st = wb.store
        recorded = {k: pv for rid in st.run_ids() for k, pv in st.protocol_verdicts(rid, "kernelbench").items()}
        # an infra_error's turn is judged again, as bench does; a verdict that stands only with --again
        final = {k: pv for rid in st.run_ids() for k, pv in st.protocol_verdicts(rid, "kernelbench", final=True).items()}
        done = {k for k, pv in final.items() if pv.task not in again}
        unknown = again - {pv.task for pv in recorded.values()}
        if unknown:
            sys.exit(f"--again: no recorded kernelbench verdict for {', '.join(sorted(unknown))}")
        # the GPU's judges start only once the arguments are known to be right
        v = stack.enter_context(Verifier(device="cuda", lanes_per_gpu=a.lanes_per_gpu))
        todo = []
        for e, task, cfg in _episodes(wb):
            turns = [t for t in st.turns(e.episode_id) if t.code]
            b = best_turn(turns) if turns else None
            t = next((t for t in turns if t.idx == b), turns[-1]) if turns else None
            if t is not None and (e.episode_id, t.idx) not in done:
                # eager only: KernelBench's speedups are over eager, and a torch.compile baseline costs a
                # compile per problem that the pilot's device time cannot pay
                todo.append((e.episode_id, t, VerifyRequest(candidate=t.code, task=task, backend=cfg.backend,
                                                             protocol="kernelbench",
                                                             timing=dataclasses.replace(cfg.timing, compile=False))))
        print(f"{len(todo)} turns to judge under the kernelbench protocol", flush=True)
        t0 = time.perf_counter()
        # each recorded as soon as it is judged: a call cut short keeps what it reached
        for i, verdict in v.verify_each([req for _, _, req in todo]):
            eid, t, req = todo[i]
            if isinstance(verdict, TaskError):  # the task itself is broken
                print(f"  {req.task.key}: {verdict}", flush=True)
                continue
            st.add_protocol_verdict(eid, t.idx, verdict, supersede=a.why if (eid, t.idx) in final else None)
            tm = verdict.timing
            print(f"  {req.task.key} turn {t.idx}: {t.verdict.status} -> {verdict.status}"
                  + (f", x{tm.speedup_eager:.2f} eager" if tm and tm.speedup_eager else "")
                  + f" ({time.perf_counter() - t0:.0f} s in)", flush=True)


def cmd_finish(a) -> None:
    """End the episodes whose folder holds FINISH (the agent's way of saying it is done before
    the budget is): ``kmosaic episode finish`` on each, here (finishing verifies nothing)."""
    root = Path(a.root)
    for part in ("mosaic", "kernelbench"):
        for flag in sorted((root / part / "episodes").glob("*/FINISH")):
            _finish(root, part, flag.parent, "finished by the agent", by_agent=True)


def cmd_close(a) -> None:
    """End every episode still open when the pilot itself ends, whether or not the agent wrote
    FINISH: the operator's decision, not the policy's, so DONE says so and gives ``--why``. An
    episode with a candidate waiting for its verdict is left open: closing it would drop a turn."""
    root = Path(a.root)
    for part in ("mosaic", "kernelbench"):
        for folder in sorted(p for p in (root / part / "episodes").iterdir() if p.is_dir()):
            if (folder / "FINISH").exists():
                _finish(root, part, folder, "finished by the agent", by_agent=True)
            else:
                _finish(root, part, folder, f"closed by the operator, not the agent: {a.why}", by_agent=False)


def _finish(root: Path, part: str, folder: Path, why: str, by_agent: bool) -> None:
    if (folder / "DONE").exists():
        return
    if (folder / "candidate.py").exists():
        print(folder.name, "left open: its candidate.py has not been verified")
        return
    p = _kmosaic("episode", "finish", str(folder), "--store", str(root / part / "store.sqlite"))
    if p.returncode == 0:
        if by_agent:
            (folder / "prompt.md").unlink(missing_ok=True)  # FINISH answered it
        # else kept: the prompt the agent never answered is part of the record
        (folder / "DONE").write_text(why + "\n")
    print(folder.name, why if p.returncode == 0 else p.stderr.strip())


def _qwen_counter(ranks_file: str | None):
    """Token counts with Qwen's BPE ranks (the ``qwen.tiktoken`` file that the dashscope wheel
    ships) through tiktoken, with Qwen's pre-tokenizer; None without a ranks file."""
    if not ranks_file:
        return None
    import base64

    try:
        import tiktoken
    except ImportError:
        sys.exit("--tokenizer-ranks needs tiktoken (pip install tiktoken); without the option the report counts no tokens")
    if not Path(ranks_file).is_file():
        sys.exit(f"--tokenizer-ranks {ranks_file}: no such file (qwen.tiktoken, from the dashscope wheel: see results/pilot-2026-12/README.md)")
    ranks = {base64.b64decode(tok): int(r) for tok, r in (ln.split() for ln in Path(ranks_file).read_text().splitlines() if ln)}
    pat = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
    enc = tiktoken.Encoding("qwen", pat_str=pat, mergeable_ranks=ranks, special_tokens={})
    return lambda text: len(enc.encode(text, disallowed_special=()))


def _turn_row(t, count=None) -> dict:
    v = t.verdict
    tm = v.timing
    return {"idx": t.idx, "stage": t.stage, "status": v.status,
            "rules": [r.rule for r in v.rejections], "failure": v.error.kind if v.error else None,
            "speedup_eager": tm.speedup_eager if tm else None, "speedup_compile": tm.speedup_compile if tm else None,
            "candidate_ms": tm.candidate_ms if tm else None, "guidance": list(t.guidance_ids),
            "profiled": "Nsight" in (t.feedback or "") or "ncu" in (t.feedback or ""),
            "reply_chars": len(t.reply or ""), "verify_s": t.verify_s, "phases_s": dict(v.phases_s or {}),
            # the chat this turn was: every message it was prompted with, then the reply
            "prompt_tokens": count("".join(m.get("content") or "" for m in t.messages)) if count else None,
            "reply_tokens": count(t.reply or "") if count else None}


def _phases(rows: list[dict]) -> dict:
    """Where a verdict's time went (issue 16): the median and mean of each phase over the verdicts
    that have it, and the judge's time less the baselines timed within the verdict (what a verdict
    costs once the task's baselines are cached)."""
    import statistics

    rows = [r for r in rows if "judge" in r]
    out = {}
    for k in sorted({k for r in rows for k in r}):
        v = [r[k] for r in rows if isinstance(r.get(k), (int, float))]
        if v:
            out[k] = {"n": len(v), "median": round(statistics.median(v), 3), "mean": round(statistics.mean(v), 3)}
    net = [r["judge"] - r.get("baselines", 0.0) for r in rows]
    if net:
        out["judge_less_baselines"] = {"n": len(net), "median": round(statistics.median(net), 3),
                                       "mean": round(statistics.mean(net), 3)}
    return out


def _already_done(turns, tally: dict[str, list[int]]) -> None:
    """For each correct turn, the optimize entries the knowledge base picks for it without its
    code and with it (``done_when``): how often an entry shown would describe what the kernel
    already does (issue 20's agents called such guidance mismatched)."""
    from kernelmosaic.guidance import load_default

    kb = load_default()
    for t in turns:
        if t.verdict.status != "correct" or not t.code:
            continue
        kept = {m.entry.id for m in kb.match(t.verdict, k=3, stage="optimize", code=t.code)}
        for m in kb.match(t.verdict, k=3, stage="optimize"):
            row = tally.setdefault(m.entry.id, [0, 0])
            row[0] += 1
            row[1] += m.entry.id not in kept


def _over(eps: list[dict], max_length: int) -> dict:
    """Turns whose whole chat (prompt and reply, in tokens) is longer than ``max_length``, and the
    median chat per stage."""
    import statistics

    rows = [(t["stage"], t["prompt_tokens"] + t["reply_tokens"]) for e in eps for t in e["turns"]
            if t["prompt_tokens"] is not None]
    n = [x for _, x in rows]
    return {"max_length": max_length, "turns": len(n), "over": sum(x > max_length for x in n), "longest": max(n, default=None),
            "median_by_stage": {s: statistics.median(x for st, x in rows if st == s) for s in sorted({s for s, _ in rows})}}


def _progress(a: dict, b: dict) -> bool:
    """b is a step forward from a: correct after not correct, or faster when both are correct."""
    if b["status"] == "correct" and a["status"] != "correct":
        return True
    return (a["status"] == b["status"] == "correct" and (b["speedup_eager"] or 0) > (a["speedup_eager"] or 0) * 1.02)


def cmd_report(a) -> None:
    """The pilot's numbers as JSON (per episode, per part, guidance and feedback tallies), from the
    stores alone; the markdown report quotes them."""
    from kernelmosaic.bench.metrics import compute_metrics
    from kernelmosaic.data.store import Store

    root = Path(a.root)
    count = _qwen_counter(a.tokenizer_ranks)
    # how each episode ended is in its folder's DONE (the step CLI's reason, the agent's FINISH, or
    # the operator's close), which the store does not tell apart
    plan = json.loads((root / "plan.json").read_text()) if (root / "plan.json").is_file() else {"episodes": []}
    folders = {p["episode_id"]: root / p["dir"] for p in plan["episodes"]}
    out: dict = {"parts": {}, "tokenizer": "Qwen BPE ranks (qwen.tiktoken) via tiktoken" if count else None}
    for part in ("mosaic", "kernelbench"):
        path = root / part / "store.sqlite"
        if not path.is_file():
            continue
        st = Store(path)
        try:
            eps = []
            fired: dict[str, int] = {}
            helped: dict[str, int] = {}
            redundant: dict[str, list[int]] = {}
            for run_id in st.run_ids():
                for e in st.episodes(run_id):
                    records = st.turns(e.episode_id)
                    _already_done(records, redundant)
                    turns = [_turn_row(t, count) for t in records]
                    task = st.get_task(e.task_key) or {}
                    meta = task.get("metadata") or {}
                    ext = (e.meta or {}).get("external") or {}
                    # a turn's guidance_ids are the entries its prompt showed: they helped (or not)
                    # the reply that is this turn, against the turn before it
                    for i, t in enumerate(turns):
                        for g in t["guidance"]:
                            fired[g] = fired.get(g, 0) + 1
                            if i > 0 and _progress(turns[i - 1], t):
                                helped[g] = helped.get(g, 0) + 1
                    first = next((t["idx"] for t in turns if t["status"] == "correct"), None)
                    done = folders[e.episode_id] / "DONE" if e.episode_id in folders else None
                    eps.append({"episode_id": e.episode_id, "task": e.task_key, "status": e.status,
                                "category": meta.get("category"), "dtype": (meta.get("dtypes") or [None])[0],
                                "backend": (ext.get("config") or {}).get("backend"), "turns": turns,
                                "first_correct_turn": first, "correct": any(t["status"] == "correct" for t in turns),
                                "ended": done.read_text().strip() if done and done.is_file() else None})
            metrics = {rid: compute_metrics(st, rid).to_dict() for rid in st.run_ids()}
            kb = {}
            for rid in st.run_ids():
                if st.protocol_verdicts(rid, "kernelbench"):
                    kb[rid] = compute_metrics(st, rid, protocol="kernelbench").to_dict()
        finally:
            st.close()
        statuses: dict[str, int] = {}
        rules: dict[str, int] = {}
        for e in eps:
            for t in e["turns"]:
                statuses[t["status"]] = statuses.get(t["status"], 0) + 1
                for r in t["rules"]:
                    rules[r] = rules.get(r, 0) + 1
        ended: dict[str, int] = {}
        for e in eps:
            key = "open" if e["ended"] is None else e["ended"].split(":")[0]
            ended[key] = ended.get(key, 0) + 1
        out["parts"][part] = {"episodes": eps, "ended": ended, "metrics": metrics, "kernelbench_protocol": kb,
                              "phases_s": _phases([t["phases_s"] for e in eps for t in e["turns"]]),
                              "turn_statuses": statuses, "rejection_rules": rules,
                              "guidance_already_done": {g: {"shown": n, "already_done": d} for g, (n, d) in sorted(redundant.items())},
                              "tokens_over_max_length": _over(eps, 8192),
                              "guidance_fired": fired, "guidance_followed_by_progress": helped}
    Path(a.out).write_text(json.dumps(out, indent=1, default=str) + "\n")
    for part, d in out["parts"].items():
        n = len(d["episodes"])
        ok = sum(e["correct"] for e in d["episodes"])
        print(f"{part}: {ok}/{n} episodes correct; turn statuses {d['turn_statuses']}; ended {d['ended']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("start")
    s.add_argument("--root", required=True)
    s.add_argument("--agent", required=True)
    s.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    b = sub.add_parser("baselines")
    b.add_argument("--root", required=True)
    b.add_argument("--warm-lanes", type=int, default=12)
    b.add_argument("--limit", type=int, default=1000, help="only the tasks of the first N pending folders")
    r = sub.add_parser("round")
    r.add_argument("--root", required=True)
    r.add_argument("--deadline-s", type=float, default=420)
    r.add_argument("--batch", type=int, default=12)
    r.add_argument("--lanes-per-gpu", type=int, default=1, help="judges sharing the GPU (kmosaic episode submit --lanes-per-gpu)")
    m = sub.add_parser("absorb")
    m.add_argument("--root", required=True)
    m.add_argument("--from", required=True)
    fn = sub.add_parser("finish")
    fn.add_argument("--root", required=True)
    cl = sub.add_parser("close", help="end every open episode: the pilot is over (the operator's decision)")
    cl.add_argument("--root", required=True)
    cl.add_argument("--why", required=True, help="recorded in each folder's DONE")
    k = sub.add_parser("kbjudge")
    k.add_argument("--root", required=True)
    k.add_argument("--lanes-per-gpu", type=int, default=1, help="judges sharing the GPU (timing stays exclusive)")
    k.add_argument("--again", default="", help="comma-separated task keys (L1/47_...) whose recorded verdict is "
                   "judged again and superseded (kept in the store with --why): for a verifier bug found since")
    k.add_argument("--why", default=None, help="the reason recorded with the verdicts --again supersedes")
    rep = sub.add_parser("report")
    rep.add_argument("--root", required=True)
    rep.add_argument("--out", required=True)
    rep.add_argument("--tokenizer-ranks", help="qwen.tiktoken (from the dashscope wheel) for token counts; needs tiktoken installed")
    a = ap.parse_args()
    {"start": cmd_start, "baselines": cmd_baselines, "round": cmd_round, "absorb": cmd_absorb,
     "kbjudge": cmd_kbjudge, "finish": cmd_finish, "close": cmd_close, "report": cmd_report}[a.cmd](a)


if __name__ == "__main__":
    main()
