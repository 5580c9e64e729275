"""Cache flushing and the GPU's speed of light (the judge side of timing)."""

from __future__ import annotations

import statistics
from pathlib import Path

import torch


def cv(xs: list[float]) -> float | None:
    if len(xs) < 2:
        return None
    m = statistics.mean(xs)
    return statistics.stdev(xs) / m if m > 0 else None


def spread(xs: list[float]) -> float | None:
    """The interquartile range over the median: a noise measure that a few outliers (a page fault,
    one preempted call) leave alone, unlike the CV, but a busy machine does not."""
    if len(xs) < 4:
        return None
    q1, q2, q3 = statistics.quantiles(xs, n=4)
    return (q3 - q1) / q2 if q2 > 0 else None


def excess_at(points: list[tuple[float, float]], ms: float) -> float:
    """The long-call extra at ``ms`` from measured ``(length ms, extra ms)`` points in increasing
    length: interpolated between them, flat past the longest, never below zero."""
    if not points:
        return 0.0
    if ms >= points[-1][0]:
        return max(0.0, points[-1][1])
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x0 <= ms <= x1:
            return max(0.0, y0 + (y1 - y0) * (ms - x0) / (x1 - x0) if x1 > x0 else y1)
    return 0.0


class Flusher:
    """Evicts the last-level cache between timed calls by writing 2x its size."""

    def __init__(self, device: torch.device):
        self.device = device
        if device.type == "cuda":
            l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 50 << 20) or (50 << 20)
            size = 2 * l2
        else:
            # /sys reports the whole socket's L3 (hundreds of MB on servers); a core's share
            # is far smaller, and filling GBs per call would dominate the run
            size = 2 * min(_llc_bytes(), 32 << 20)
        self.buf = torch.empty(size // 4, dtype=torch.int32, device=device)
        self.i = 0

    def __call__(self) -> None:
        self.i += 1
        self.buf.fill_(self.i)


def _llc_bytes() -> int:
    best = 0
    for idx in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            s = (idx / "size").read_text().strip()
            v = int(s[:-1]) * (1024 if s.endswith("K") else 1 << 20 if s.endswith("M") else 1) if s[-1] in "KM" else int(s)
            best = max(best, v)
        except (OSError, ValueError):
            continue
    return best or (32 << 20)


# The floor divides bytes by torch's copy_ bandwidth, which is not the HBM peak: on the H200 eager
# ReLU ran at 0.98x the floor (results/2026-11-30-h200-b). A tuned kernel can beat eager by a few
# percent more, so only a median under 0.8x the floor is implausible enough to reject.
SOL_MARGIN = 0.8


def measure_ceilings(device: torch.device) -> dict | None:
    """Copy bandwidth and matrix peak of this GPU, for the speed-of-light floor."""
    if device.type != "cuda":
        return None
    n = 1 << 28  # 1 GiB of fp32
    a = torch.empty(n, dtype=torch.float32, device=device)
    b = torch.empty_like(a)
    for _ in range(3):
        b.copy_(a)
    torch.cuda.synchronize(device)
    ts = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        b.copy_(a)
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    bw = 2 * a.numel() * 4 / (min(ts) / 1e3) / 1e9
    del a, b
    m = 8192
    x = torch.randn(m, m, dtype=torch.bfloat16, device=device)
    y = torch.randn(m, m, dtype=torch.bfloat16, device=device)
    for _ in range(3):
        x @ y
    torch.cuda.synchronize(device)
    ts = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        x @ y
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    peak = 2 * m**3 / (min(ts) / 1e3) / 1e12
    del x, y
    torch.cuda.empty_cache()
    props = torch.cuda.get_device_properties(device)
    return {"bandwidth_gbs": round(bw, 1), "peak_tflops": round(peak, 1), "name": props.name,
            "sms": int(props.multi_processor_count)}


def time_in_process(fn, sets: list, n: int, warmup: int, flush, device: torch.device) -> list[float]:
    """Times of trusted code (a reference) called in this process: task curation uses it to size
    tasks. Candidates are never timed this way; the judge times them across the process boundary.

    Two input buffers alternate and are refilled from the sets between calls (outside the timed
    interval); each call is followed by a device-wide sync before the end event."""
    from .compare import clone

    bufs = [clone(sets[0]), clone(sets[-1])]
    is_cuda = device.type == "cuda"

    def refill(i: int):
        dst, src = bufs[i % 2], sets[(i // 2) % len(sets)]
        for d, s_ in zip(dst, src):
            if isinstance(d, torch.Tensor):
                d.copy_(s_)
        return dst

    with torch.no_grad():
        for i in range(max(warmup, len(sets))):
            fn(*refill(i))
        if is_cuda:
            torch.cuda.synchronize(device)
        times = []
        for i in range(n):
            args = refill(i)
            flush()
            if is_cuda:
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                fn(*args)
                torch.cuda.synchronize(device)
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end))
            else:
                import time

                t = time.perf_counter()
                fn(*args)
                times.append((time.perf_counter() - t) * 1e3)
    return times
