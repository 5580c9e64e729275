"""Work left on a side stream, decided from the GPU profiler's records rather than from a race.

The caller's stream is the stream ``forward`` is called on; the judge copies the output on it
right after ``forward`` returns. A kernel (or copy, or memset) that the candidate put on another
stream is fine only when something orders it back before that copy: the caller's stream waited
on an event recorded after it (``cudaStreamWaitEvent``, torch's ``wait_stream``), or the host
waited for it (``cudaDeviceSynchronize``, ``cudaStreamSynchronize`` on its stream,
``cudaEventSynchronize`` on an event recorded after it). Anything else races the copy: the old
check (compare the copy with the output after a device-wide sync) passed whenever the copy lost
the race, which a short kernel always did.

Evidence: CUPTI's activity records, through torch's profiler (Kineto) with its CUDA
synchronisation records on (``enable_cuda_sync_events``). Each kernel, copy and memset record
names its stream and the correlation id of the API call that issued it; correlation ids grow
in issue order across the process. Each synchronisation record names its kind, the stream it
acted on, its own correlation id and, for event waits, the stream the event was recorded on and
the correlation id of that ``cudaEventRecord``. The candidate process brackets ``forward`` with
two tiny copies on the caller's stream: the first names the caller's stream, and the second's
correlation id is the end of ``forward`` (the harness's own synchronisations come after it and
do not count).

Trust: the records are gathered inside the candidate process (CUPTI runs there), as the other
instrumented-call evidence is (docs/verification.md, "Known limits"). Native code could forge
them; Python cannot reach them (the static screen refuses ctypes, introspection and the
harness's modules).

Not counted as ordering: the legacy default stream's implicit synchronisation with blocking
streams (``cudaStreamCreate`` without flags). Such code races the moment its caller uses any
other stream, which torch code is entitled to do, so it is refused like any unordered side
stream.

``summarize`` runs in the candidate process on the profiler's chrome trace; ``unordered`` runs in
the judge on that summary (plain data).
"""

from __future__ import annotations

from collections import defaultdict

_WORK_CATEGORIES = ("kernel", "gpu_memcpy", "gpu_memset")
# Kineto's names for CUPTI's synchronisation types (libkineto syncTypeString)
_SYNC_KINDS = ("Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync")
MAX_SYNCS = 2000  # the reply to the judge is bounded (4 MiB); an honest forward makes a handful


def _int(v, default: int = -1) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def summarize(trace_events: list) -> dict:
    """A compact summary of one profiled ``forward`` bracketed by two marker copies on the
    caller's stream: the caller's stream, the end of forward (a correlation id), per stream the
    last work issued during forward, and the synchronisation records issued during forward."""
    work = []
    syncs = []
    for ev in trace_events:
        if not isinstance(ev, dict) or ev.get("ph") != "X":
            continue
        args = ev.get("args") if isinstance(ev.get("args"), dict) else {}
        cat = ev.get("cat")
        if cat in _WORK_CATEGORIES:
            work.append((_int(args.get("correlation")), _int(args.get("stream")), str(ev.get("name", ""))[:300]))
        elif cat == "cuda_sync":
            kind = str(args.get("cuda_sync_kind") or ev.get("name") or "")
            syncs.append({"kind": kind, "stream": _int(args.get("stream")), "corr": _int(args.get("correlation")),
                          "wait_on_stream": _int(args.get("wait_on_stream")),
                          "record_corr": _int(args.get("wait_on_cuda_event_record_corr_id"))})
    work.sort()
    if len(work) < 2:
        return {"caller": None, "why": "the profiler recorded no marker copies on the caller's stream"}
    (c0, caller, _), (c1, caller_end, _) = work[0], work[-1]
    if caller != caller_end or caller < 0 or c0 < 0:
        return {"caller": None, "why": "the marker copies were not both recorded on one stream"}
    last: dict[str, dict] = {}
    for corr, stream, name in work[1:-1]:
        d = last.setdefault(str(stream), {"count": 0, "last_corr": -1, "name": name})
        d["count"] += 1
        if corr >= d["last_corr"]:
            d["last_corr"], d["name"] = corr, name
    # the harness's own synchronisation after forward (corr > c1) is not the candidate's ordering
    mine = [s for s in syncs if c0 < s["corr"] < c1 and s["kind"] in _SYNC_KINDS]
    return {"caller": caller, "begin": c0, "end": c1, "streams": last, "syncs": mine[:MAX_SYNCS],
            "syncs_cut": len(mine) > MAX_SYNCS}


def unordered(summary: dict) -> list[dict] | None:
    """The side streams whose last work in forward is not ordered before the caller's stream's
    next work (or before forward's return). None when the summary cannot decide (no caller)."""
    if not isinstance(summary, dict) or not isinstance(summary.get("caller"), int):
        return None
    caller = summary["caller"]
    streams = summary.get("streams") if isinstance(summary.get("streams"), dict) else {}
    syncs = [s for s in summary.get("syncs") or [] if isinstance(s, dict)]
    # front[s]: work on stream s issued before this correlation id is ordered before the caller's
    # stream's later work; every_stream: the same for all streams (a device-wide synchronize)
    front: dict[int, int] = defaultdict(lambda: -1)
    every_stream = -1
    waits = []
    for s in syncs:
        kind, stream, corr = s.get("kind"), _int(s.get("stream")), _int(s.get("corr"))
        src, rec = _int(s.get("wait_on_stream")), _int(s.get("record_corr"))
        if kind == "Context Sync":
            every_stream = max(every_stream, corr)
        elif kind == "Stream Sync" and stream >= 0:
            front[stream] = max(front[stream], corr)
        elif kind == "Event Sync":
            if src >= 0 and rec >= 0:
                front[src] = max(front[src], rec)
            else:
                # the event's stream was not recorded: count it for every stream up to the record,
                # which came before this call (a false rejection costs an honest kernel its verdict)
                every_stream = max(every_stream, rec if rec >= 0 else corr)
        elif kind == "Stream Wait Event" and stream >= 0:
            waits.append((stream, corr, src, rec))

    def ordered_after(stream: int, corr: int) -> bool:
        """Work that stream ``stream`` issues after ``corr`` is ordered before the caller's copy."""
        return stream == caller or max(front[stream], every_stream) > corr

    changed = True
    while changed:  # waits chain: side A -> side B -> caller
        changed = False
        for waiter, w, src, rec in waits:
            if not ordered_after(waiter, w):
                continue
            if src >= 0 and rec >= 0:
                if front[src] < rec:
                    front[src], changed = rec, True
            elif every_stream < w:
                # the waited event's stream is unknown: lenient, as for Event Sync above
                every_stream, changed = w, True
    out = []
    for key, d in sorted(streams.items()):
        stream = _int(key)
        if stream == caller or not isinstance(d, dict):
            continue
        last = _int(d.get("last_corr"))
        if last >= max(front[stream], every_stream):
            out.append({"stream": stream, "count": _int(d.get("count"), 0), "last": str(d.get("name", ""))[:200]})
    return out


def rejection(summary: dict) -> str | None:
    """The detail of an `unsynchronized_output` rejection, or None."""
    bad = unordered(summary)
    if not bad:
        return None
    parts = [f"stream {b['stream']} ({b['count']} item(s), last: {b['last'][:120]})" for b in bad[:4]]
    return ("the profiler shows work that forward left on a stream other than the caller's "
            f"(stream {summary['caller']}) with no ordering back to it (no event wait on the caller's stream, "
            "no synchronize): " + "; ".join(parts))


def notes(summary) -> list[str]:
    """What the verdict should say when the records could not decide (the race check still ran)."""
    if isinstance(summary, dict) and summary.get("caller") is None:
        return [f"side streams were judged by the race check only: {summary.get('why') or 'no records'}"]
    if isinstance(summary, dict) and summary.get("syncs_cut"):
        return [f"the stream check read the first {MAX_SYNCS} synchronisation records only"]
    return []


def profiler_config(torch):
    """The profiler's experimental config with CUDA synchronisation records on, or None where
    this torch has no such option (then the stream check falls back to the race)."""
    try:
        return torch._C._profiler._ExperimentalConfig(enable_cuda_sync_events=True)
    except (AttributeError, TypeError):
        return None
