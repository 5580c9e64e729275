"""KernelBench evaluation: metrics over recorded runs and the Markdown/HTML report.

    from kernelmosaic.bench import compute_metrics, write_report
"""

from .metrics import (
    FAST_PS,
    PASS_KS,
    LevelMetrics,
    RunMetrics,
    TaskRow,
    compute_metrics,
    fast_p,
    geomean,
    pass_at_k,
)
from .baselines import measure_baselines, stored_baselines, warm_compile
from .published import PUBLISHED, PUBLISHED_LABEL, published
from .report import ScreenshotError, find_chromium, screenshot, task_category, write_report
from .run import BenchConfig, BenchResult, run_bench

__all__ = [
    "BenchConfig",
    "BenchResult",
    "FAST_PS",
    "PASS_KS",
    "PUBLISHED",
    "PUBLISHED_LABEL",
    "LevelMetrics",
    "RunMetrics",
    "ScreenshotError",
    "TaskRow",
    "compute_metrics",
    "fast_p",
    "find_chromium",
    "geomean",
    "measure_baselines",
    "pass_at_k",
    "published",
    "run_bench",
    "screenshot",
    "stored_baselines",
    "task_category",
    "warm_compile",
    "write_report",
]
