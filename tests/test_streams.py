"""Side streams decided from the profiler's records (issue 15, item 4), on the CPU.

The records are written in the layout of Kineto's chrome trace, the file the candidate process
reads (`export_chrome_trace`): kernels, copies and memsets with their stream and correlation id,
and `cuda_sync` records (kinds, stream, `wait_on_stream`, `wait_on_cuda_event_record_corr_id`)
as libkineto writes them with `enable_cuda_sync_events`. The GPU side (real records from real
streams, through the verifier) is tests/gpu/adversarial/side_stream_fast.py and its control.

Stream 7 is the caller's here (CUPTI's number for the legacy default stream); the candidate
process's two marker copies are the first and last work records.
"""

from __future__ import annotations

from kernelmosaic.verify import streams
from kernelmosaic.verify.rules import dynamic_rejections

CALLER, SIDE, OTHER = 7, 20, 21


def work(corr, stream, name="void relu_kernel(float const*, float*, long)", cat="kernel"):
    return {"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream, "ts": corr, "dur": 1,
            "args": {"queued": 0, "device": 0, "context": 1, "stream": stream, "correlation": corr}}


def sync(kind, corr, stream=-1, src=None, rec=None):
    args = {"cuda_sync_kind": kind, "stream": stream, "correlation": corr, "device": 0, "context": 1}
    if kind in ("Event Sync", "Stream Wait Event"):
        args.update({"wait_on_stream": -1 if src is None else src,
                     "wait_on_cuda_event_record_corr_id": -1 if rec is None else rec, "wait_on_cuda_event_id": 3})
    return {"ph": "X", "cat": "cuda_sync", "name": kind, "pid": 0, "tid": stream, "ts": corr, "dur": 1, "args": args}


def trace(*middle, end_syncs=()):
    """Markers at correlation 10 and 1000 on the caller's stream around forward's records; the
    harness's own device-wide sync after forward (as the candidate process does)."""
    marker = "Memcpy DtoD (Device -> Device)"
    return [work(10, CALLER, marker, "gpu_memcpy"), *middle, work(1000, CALLER, marker, "gpu_memcpy"),
            sync("Context Sync", 1001), *end_syncs]


def verdict(events):
    return streams.rejection(streams.summarize(events))


def test_work_on_the_callers_stream_is_ordered():
    assert verdict(trace(work(20, CALLER), work(30, CALLER))) is None


def test_a_kernel_left_on_a_side_stream_is_found():
    detail = verdict(trace(work(20, SIDE)))
    assert detail is not None and f"stream {SIDE}" in detail and "relu_kernel" in detail


def test_the_harness_sync_after_forward_does_not_order_it():
    # the candidate process synchronizes the device after the end marker: that is not the candidate's
    assert verdict(trace(work(20, SIDE), end_syncs=[sync("Context Sync", 1002)])) is not None


def test_the_caller_waiting_on_an_event_recorded_after_the_kernel_orders_it():
    # torch's current_stream().wait_stream(side): cudaEventRecord on side (corr 40), wait on caller (41)
    assert verdict(trace(work(20, SIDE), sync("Stream Wait Event", 41, CALLER, src=SIDE, rec=40))) is None


def test_an_event_recorded_before_the_kernel_does_not_order_it():
    assert verdict(trace(sync("Stream Wait Event", 16, CALLER, src=SIDE, rec=15), work(20, SIDE))) is not None


def test_a_wait_on_another_side_stream_does_not_order_it():
    assert verdict(trace(work(20, SIDE), sync("Stream Wait Event", 41, CALLER, src=OTHER, rec=40))) is not None


def test_the_side_stream_waiting_on_the_caller_is_the_wrong_direction():
    # side.wait_stream(current): the inputs are ready for the side stream, the output is not for the caller
    assert verdict(trace(sync("Stream Wait Event", 15, SIDE, src=CALLER, rec=14), work(20, SIDE))) is not None


def test_waits_chain_through_another_stream():
    ok = trace(work(20, SIDE), sync("Stream Wait Event", 31, OTHER, src=SIDE, rec=30), work(35, OTHER),
               sync("Stream Wait Event", 41, CALLER, src=OTHER, rec=40))
    assert verdict(ok) is None
    # the caller waits on OTHER at a point before OTHER waited on SIDE: SIDE is not covered
    broken = trace(work(20, SIDE), sync("Stream Wait Event", 26, CALLER, src=OTHER, rec=25),
                   sync("Stream Wait Event", 31, OTHER, src=SIDE, rec=30))
    assert verdict(broken) is not None


def test_host_synchronization_in_forward_orders_it():
    assert verdict(trace(work(20, SIDE), sync("Context Sync", 30))) is None
    assert verdict(trace(work(20, SIDE), sync("Stream Sync", 30, SIDE))) is None
    assert verdict(trace(work(20, SIDE), sync("Event Sync", 31, -1, src=SIDE, rec=30))) is None


def test_host_synchronization_before_the_work_or_on_another_stream_does_not():
    assert verdict(trace(sync("Context Sync", 15), work(20, SIDE))) is not None
    assert verdict(trace(work(20, SIDE), sync("Stream Sync", 30, OTHER))) is not None
    assert verdict(trace(work(20, SIDE), sync("Event Sync", 31, -1, src=SIDE, rec=19))) is not None


def test_the_last_item_on_a_stream_decides():
    # ordered up to corr 30, then one more kernel on the side stream after the event record
    assert verdict(trace(work(20, SIDE), sync("Stream Wait Event", 31, CALLER, src=SIDE, rec=30), work(40, SIDE))) is not None


def test_copies_and_memsets_on_a_side_stream_count_as_work():
    assert verdict(trace(work(20, SIDE, "Memcpy DtoD (Device -> Device)", "gpu_memcpy"))) is not None
    assert verdict(trace(work(20, SIDE, "Memset (Device)", "gpu_memset"))) is not None


def test_a_wait_whose_event_stream_was_not_recorded_is_counted_leniently():
    # Kineto writes -1 when it did not see the event's record: count the wait for every stream
    # up to it (a false rejection would cost an honest kernel its verdict)
    assert verdict(trace(work(20, SIDE), sync("Stream Wait Event", 41, CALLER))) is None
    assert verdict(trace(sync("Stream Wait Event", 15, CALLER), work(20, SIDE))) is not None


def test_without_the_markers_nothing_is_decided():
    s = streams.summarize([work(20, SIDE)])
    assert s["caller"] is None and streams.unordered(s) is None and streams.notes(s)
    s = streams.summarize([work(10, CALLER), work(20, SIDE), work(30, OTHER)])
    assert s["caller"] is None  # the two markers on different streams: not ours


def test_the_summary_is_small_and_is_data():
    s = streams.summarize(trace(*[work(20 + i, SIDE) for i in range(500)]))
    assert s["streams"][str(SIDE)]["count"] == 500 and s["streams"][str(SIDE)]["last_corr"] == 519
    assert str(CALLER) not in s["streams"]  # the markers are not forward's work
    assert streams.unordered({"caller": "7"}) is None  # malformed (it came over the wire): undecided
    assert streams.unordered({"caller": CALLER, "streams": {"x": "y"}, "syncs": ["z"]}) == []


def test_the_rule_applies_on_the_gpu_under_both_policies():
    instr = {"launches": {"nvrtc:relu": 1}, "kernels": [], "ops": {}, "streams": streams.summarize(trace(work(20, SIDE)))}
    for policy in ("strict", "kernelbench"):
        assert "unsynchronized_output" in {r for r, _ in dynamic_rejections(instr, policy, [], True)}
    assert "unsynchronized_output" not in {r for r, _ in dynamic_rejections(instr, "strict", [], False)}
