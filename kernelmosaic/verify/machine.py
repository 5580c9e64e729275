"""Facts about this machine that verdicts and caches record (stdlib only)."""

from __future__ import annotations


def cpu_name() -> str | None:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None
