"""``kmosaic tasks publish``: a task set as a Hugging Face dataset folder.

The folder holds ``data/train-<sha256>.parquet`` (one row per task: the source and its metadata) and
``README.md``, a dataset card whose YAML header (licence, size category, the ``configs`` that
map the split to its file) is what the Hub and ``datasets.load_dataset(DIR)`` read. The card
says how the set was generated, filtered and decontaminated, where review stands and what is
known to be wrong with it; each of those is read from the set's own files, never assumed.

A set has one split, ``train``: it is material to generate training trajectories from. Rejected
tasks are left out unless asked for (``--status``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from pathlib import Path

from .._card import md_table as _table
from .._card import size_category as _size_category
from ..task import TaskError, sha256_text
from .taskset import TaskSet

PROJECT_LICENSE = "apache-2.0"
DEFAULT_STATUSES = ("accepted", "auto", "pending")
KERNELBENCH_URL = "https://github.com/ScalingIntelligence/KernelBench"

# the columns, in order, with what the card says about them
COLUMNS = [
    ("name", "string", "task name (unique in the set)"),
    ("source", "string", "the task: a KernelBench-format Python file (`Model`, `get_inputs`, `get_init_inputs`)"),
    ("sha256", "string", "sha256 of `source`"),
    ("category", "string", "operator family"),
    ("generator", "string", "single | fusion | block"),
    ("seed", "int64", "the generator's seed for this task"),
    ("ops", "list<string>", "the op sequence read from `forward`"),
    ("dtypes", "list<string>", "dtypes the task computes in"),
    ("shapes_json", "string", "input shapes, JSON: {input name: shape}"),
    ("out_shape", "list<int64>", "output shape"),
    ("flops", "int64", "FLOPs of one forward (estimated when `measured_flops` is null)"),
    ("bytes", "int64", "fewest bytes one forward must move (inputs and output once)"),
    ("measured_flops", "int64", "FLOPs counted by torch's counter on the GPU run (null if not measured)"),
    ("eager_ms", "float64", "median PyTorch eager time (ms) with the verifier's timing loop; null if not measured"),
    ("gpu", "string", "the GPU `eager_ms` was measured on"),
    ("nearest_kb", "string", "lexically nearest KernelBench L1-L3 problem"),
    ("kb_score", "float64", "its lexical score (0.7 op-sequence similarity + 0.3 token-bigram cosine)"),
    ("kb_behaviour_json", "string", "the behavioural check's row for this task, JSON (null if not run)"),
    ("status", "string", "accepted | rejected (by a reviewer) | auto (passed the filters, not reviewed) | pending"),
    ("edited", "bool", "a reviewer edited the source after it was measured (its eager time may no longer hold)"),
    ("review_note", "string", "the latest reviewer's note, if any"),
    ("reviewed_by", "string", "who made the latest accept/reject decision, if anyone"),
]


def _behaviour_rows(ts: TaskSet, decontam: str | Path | None) -> tuple[dict[str, dict], str | None]:
    """Behavioural rows by task name: from ``decontam`` (a ``kmosaic tasks decontam --out`` file),
    the set's own ``decontam.jsonl``, or else the rows a shipped set's records carry
    (``kb_behaviour``, copied from its pool's check by ``pipeline.eligible``); and where they came from."""
    from .pipeline import DECONTAM, read_rows

    path = Path(decontam) if decontam else ts.root / DECONTAM
    if decontam and not path.is_file():
        raise TaskError(str(path), "no such file (give the rows `kmosaic tasks decontam SET --out FILE` wrote)")
    rows = read_rows(path)
    if any("behaviour" in r for r in rows.values()):
        return {n: r["behaviour"] for n, r in rows.items() if "behaviour" in r}, str(path)
    if not decontam:
        own = {r["name"]: r["kb_behaviour"] for r in ts.records if r.get("kb_behaviour")}
        if own:
            return own, str(ts.root / "manifest.jsonl")
    return {}, None


def publish(set_dir, out_dir, *, license_id: str = PROJECT_LICENSE, statuses: tuple[str, ...] = DEFAULT_STATUSES,
            decontam: str | Path | None = None, pretty_name: str | None = None) -> dict:
    """Write ``out_dir/data/train-<sha256>.parquet`` and ``out_dir/README.md``; returns a summary."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .review import ledger
    from .review import statuses as task_statuses

    ts = TaskSet.open(set_dir)
    out = Path(out_dir)
    if out.exists() and any(out.iterdir()):
        raise TaskError(str(out), "is not empty: publish into a new folder")
    known = {"accepted", "auto", "pending", "rejected"}
    bad = [s for s in statuses if s not in known]
    if bad or not statuses:
        raise TaskError("--status", f"statuses are {', '.join(sorted(known))}, not {', '.join(bad) or 'nothing'}")
    st = task_statuses(ts)
    led = ledger(ts)
    last_human: dict[str, dict] = {}
    edited = set()
    for row in led:
        if row.get("decision") in ("accepted", "rejected"):
            last_human[row["name"]] = row
        elif row.get("decision") == "edited":
            edited.add(row["name"])
    beh, beh_file = _behaviour_rows(ts, decontam)
    picked = [r for r in ts.records if st[r["name"]] in statuses]
    if not picked:
        raise TaskError(str(ts.root), f"no task has status {' or '.join(statuses)}")

    cols: dict[str, list] = {c: [] for c, _, _ in COLUMNS}
    for rec in picked:
        src = ts.source(rec)
        n = rec["name"]
        h = last_human.get(n, {})
        vals = {
            "name": n, "source": src, "sha256": sha256_text(src),
            "category": rec.get("category"), "generator": rec.get("generator"), "seed": rec.get("seed"),
            "ops": list(rec.get("ops") or []), "dtypes": list(rec.get("dtypes") or []),
            "shapes_json": json.dumps(rec.get("shapes") or {}), "out_shape": list(rec.get("out_shape") or []),
            "flops": rec.get("flops"), "bytes": rec.get("bytes"), "measured_flops": rec.get("measured_flops"),
            "eager_ms": rec.get("eager_ms"), "gpu": rec.get("gpu"), "nearest_kb": rec.get("nearest_kb"),
            "kb_score": rec.get("kb_score"),
            "kb_behaviour_json": json.dumps(beh[n]) if n in beh else (json.dumps(rec["kb_behaviour"]) if rec.get("kb_behaviour") else None),
            "status": st[n], "edited": n in edited, "review_note": h.get("note"), "reviewed_by": h.get("who"),
        }
        for c in cols:
            cols[c].append(vals[c])
    types = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(),
             "list<string>": pa.list_(pa.string()), "list<int64>": pa.list_(pa.int64())}
    schema = pa.schema([(c, types[t]) for c, t, _ in COLUMNS])
    table = pa.table({c: pa.array(cols[c], type=schema.field(c).type) for c in cols}, schema=schema)
    buf = pa.BufferOutputStream()
    pq.write_table(table, buf)
    data = buf.getvalue().to_pybytes()
    # named by its content: `datasets` caches a local folder by its card's `configs`, not by its
    # files (5.2: a folder published again, with other tasks, under the same file name loaded the
    # old rows), so other rows must be another path in the card
    rel = f"data/train-{hashlib.sha256(data).hexdigest()[:12]}.parquet"
    card = _card(ts, picked, st, last_human, edited, beh, beh_file, license_id, statuses, pretty_name, rel)  # before writing
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / rel).write_bytes(data)
    (out / "README.md").write_text(card)
    return {"set": ts.name, "rows": len(picked), "left_out": len(ts.records) - len(picked), "out": str(out),
            "file": rel, "license": license_id, "behaviour_rows": beh_file}


def _card(ts: TaskSet, picked, st, last_human, edited, beh, beh_file, license_id, statuses, pretty_name, rel) -> str:
    n = len(picked)
    name = ts.name
    pretty = pretty_name or f"KernelMosaic task set {name}"
    meta = ts.meta
    fm = ["---", f"license: {license_id}", f"pretty_name: {json.dumps(pretty)}", "task_categories:", "- text-generation",
          "language:", "- en", "tags:", "- code", "- pytorch", "- cuda", "- gpu-kernels", "- kernelbench-format",
          "- kernelmosaic", "size_categories:", f"- {_size_category(n)}", "configs:", "- config_name: default",
          "  data_files:", "  - split: train", f"    path: {rel}", "---", ""]
    L = fm + [f"# {pretty}", "",
              f"{n} PyTorch reference programs in the KernelBench format (a `Model`, `get_inputs()` and "
              "`get_init_inputs()`), for teaching language models to write fast, correct GPU kernels. Each row holds "
              "one task's source and its metadata. They were made by KernelMosaic's generators, not written by hand.", ""]
    L += ["## Use", "", "```python", "from datasets import load_dataset", "",
          f'ds = load_dataset("PATH/TO/THIS/FOLDER")["train"]   # or the Hub repository id',
          'open(ds[0]["name"] + ".py", "w").write(ds[0]["source"])   # a runnable KernelBench-format file', "```", ""]
    L += ["## Splits and size", "", _table(["split", "rows", "file"], [["train", n, rel]]), "",
          f"The set `{name}` has {len(ts.records)} tasks; published: those with status {', '.join(statuses)}"
          + (f" ({len(ts.records) - n} left out)." if len(ts.records) - n else " (all of them)."), ""]
    L += ["Tasks by category and dtype:", "",
          _table(["category", "tasks"], Counter(r.get("category") for r in picked).most_common()), "",
          _table(["dtype", "tasks"], Counter(d for r in picked for d in (r.get("dtypes") or [])).most_common()), "",
          _table(["generator", "tasks"], Counter(r.get("generator") for r in picked).most_common()), ""]
    L += ["## Columns", "", _table(["column", "type", "description"], COLUMNS), ""]

    pool, sel = meta.get("pool") or {}, meta.get("selection") or {}
    L += ["## How it was generated", ""]
    if pool:
        L += [f"A pool of {pool.get('n', '?')} tasks from `kmosaic tasks generate` (seed {pool.get('seed', '?')}, "
              f"generator mix {json.dumps(pool.get('mix'))}, sized for `{pool.get('scale', '?')}`): single operators from "
              "a catalog, fusion chains of 2-6 ops (like KernelBench level 2) and small architecture blocks (like "
              "level 3). Every generator is deterministic in its seed."
              + (f" {pool['note']}." if pool.get("note") else ""), ""]
    else:
        L += ["Generated by `kmosaic tasks generate` (the set records no pool settings).", ""]
    L += ["## How it was filtered", ""]
    eager = [r["eager_ms"] for r in picked if r.get("eager_ms")]
    # a CPU run (a rehearsal) records no GPU
    gpus = Counter(r.get("gpu") or "the CPU (no GPU recorded)" for r in picked if r.get("eager_ms"))
    if eager:
        eager.sort()
        win = sel.get("window_ms")
        L += ["Each reference was run in a worker process and kept only if it runs, gives finite outputs, is "
              "deterministic, changes with the input seed, and is neither constant nor near zero under the verifier's "
              f"tolerances. {len(eager)} of the {n} tasks have an eager time measured with the verifier's timing loop on "
              f"{', '.join(f'{g} ({c})' for g, c in gpus.most_common())}: median {eager[len(eager) // 2]:.3f} ms, range "
              f"{eager[0]:.3f}-{eager[-1]:.3f} ms" + (f" (the window was {win[0]:g}-{win[1]:g} ms)" if win else "") + ".",
              ""]
    else:
        L += ["No eager time was measured for these tasks.", ""]
    if sel:
        L += [f"Then {sel.get('n', n)} were selected for diversity by `{sel.get('method', '?')}` over op, category, dtype "
              "and shape features" + ((" within (category, dtype) quotas in proportion to the eligible tasks"
              if sel.get("quota") == "proportional" else " within per-category quotas") if sel.get("balance") else "")
              + ".", ""]
    if (ts.root / "report.md").is_file():
        L += ["The set's own `report.md` (in the KernelMosaic repository) has the funnel, the drops with examples "
              "and the coverage plots.", ""]

    L += ["## How it was decontaminated", "",
          f"Against KernelBench levels 1-3 ({KERNELBENCH_URL}). The lexical screen scores every task against every "
          "problem (0.7 x op-sequence similarity + 0.3 x normalized-token cosine) and drops scores at or above the "
          "threshold (0.75); `nearest_kb` and `kb_score` are its nearest problem and score.", ""]
    if beh:
        verdicts = Counter(beh[r["name"]]["verdict"] for r in picked if r["name"] in beh)
        same = [r["name"] for r in picked if beh.get(r["name"], {}).get("verdict") == "same"]
        L += ["The behavioural check ran each task and each problem on shared float64 probe inputs (sizes shrunk to "
              "16, matched by rank) and compared the outputs: " + ", ".join(f"{v}: {c}" for v, c in verdicts.most_common())
              + ". `kb_behaviour_json` holds each task's evidence.", ""]
        if same:
            by_kb = Counter(beh[x]["kb"] for x in same)
            L += [f"**{len(same)} published tasks compute the same function as a KernelBench problem** (at the task's "
                  "own shape, in float64): " + ", ".join(f"{k} ({c})" for k, c in by_kb.most_common()) + ". They are "
                  "listed under known limits.", ""]
    else:
        L += ["The behavioural check (does a task compute a KernelBench function under another spelling?) has not "
              "been run on this set.", ""]

    counts = Counter(st[r["name"]] for r in picked)
    who = Counter(h.get("who") for h in last_human.values())
    L += ["## Review status", "", _table(["status", "tasks"], sorted(counts.items())), ""]
    if last_human:
        L += [f"{len(last_human)} tasks have a reviewer's decision, by {len(who)} reviewer(s); {len(edited)} were "
              "edited. Decisions are kept in the set's append-only `review.jsonl` (who, when, why).", ""]
    else:
        L += ["**No task has been reviewed by a person.** `auto` means the task passed the automatic steps only.", ""]

    limits = []
    if beh:
        same = [r["name"] for r in picked if beh.get(r["name"], {}).get("verdict") == "same"]
        near = [r["name"] for r in picked if beh.get(r["name"], {}).get("verdict") == "near"]
        if same:
            limits.append(f"{len(same)} tasks compute a KernelBench L1-L3 function (see above): "
                          + ", ".join(f"`{x}`" for x in same[:20]) + (" ..." if len(same) > 20 else "")
                          + ". A model trained on them has seen those benchmark problems under another name.")
        if near:
            limits.append(f"{len(near)} tasks agree with a KernelBench problem on some probe but not at their own "
                          "shape (near variants, e.g. a norm over another dim).")
        unprobed = sum(1 for r in picked if beh.get(r["name"], {}).get("verdict") == "not probed")
        if unprobed:
            limits.append(f"{unprobed} tasks could not be probed at small sizes; the behavioural check says nothing about them.")
    else:
        limits.append("Decontamination is lexical only: a task that spells a KernelBench function differently "
                      "(e.g. `F.softsign(x)` vs `x / (1 + x.abs())`) passes it.")
    if not last_human:
        limits.append("No human review: every task is as the generators and filters left it.")
    if edited:
        limits.append(f"{len(edited)} edited tasks: their `eager_ms` was measured before the edit.")
    if gpus:
        limits.append(f"Eager times come from {', '.join(gpus)} only; other GPUs will differ.")
    dt = Counter(d for r in picked for d in (r.get("dtypes") or []))
    if dt and dt.get("fp32", 0) < n / 2:
        limits.append(f"fp32 is {dt.get('fp32', 0)} of {n} tasks, while KernelBench is all fp32.")
    if any(r.get("version") != "v2" for r in picked):
        # v2's generators write each docstring from the code they emit, and a test holds every
        # shipped v2 docstring to its code (tests/test_tasks_v2.py); v1's did not (a ReLU gate
        # called SwiGLU)
        limits.append("Docstrings are generated from the op names; a docstring can describe a chain loosely (check `source`).")
    limits.append("Probe and filter results depend on the PyTorch version that ran them.")
    L += ["## Known limits", ""] + [f"- {x}" for x in limits] + [""]
    L += ["## Licence", "",
          f"The metadata field `license: {license_id}` is the licence chosen by whoever published this folder "
          "(`kmosaic tasks publish --license`). The tasks were written by KernelMosaic's generators (code licensed "
          "Apache-2.0). They follow KernelBench's file format; no KernelBench file is included.", "",
          f"Published {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())} from the task set `{name}` by "
          f"`kmosaic tasks publish`.", ""]
    return "\n".join(L)
