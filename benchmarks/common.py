"""Timing and memory helpers shared by the benchmarks."""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baplatform.settings")
    import django

    django.setup()


def median_seconds(fn: Callable[[], Any], *, repeat: int = 7, warmup: int = 1) -> float:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(rows: list[dict[str, Any]]) -> str:
    headers = list(rows[0])
    widths = [max(len(str(h)), *(len(_fmt(r[h])) for r in rows)) for h in headers]
    lines = [" | ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines.append("-+-".join("-" * w for w in widths))
    lines += [" | ".join(_fmt(r[h]).ljust(w) for h, w in zip(headers, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if value < 100 else f"{value:.0f}"
    return str(value)
