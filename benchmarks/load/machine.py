"""Where a run ran: the checkout, its commit and the machine (the results file's first lines)."""

from __future__ import annotations

import contextlib
import os
import platform
import subprocess
from pathlib import Path

#: The checkout: bot/, devtools/ and benchmarks/ below it.
ROOT = Path(__file__).resolve().parent.parent.parent


def machine() -> str:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    mem = ""
    with contextlib.suppress(OSError), open("/proc/meminfo") as f:
        mem = f", {int(f.readline().split()[1]) / 1024 / 1024:.1f} GiB RAM"
    return f"{model}, {cpus} cpus{mem}, {platform.system()} {platform.release()}"


def commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + (" (with uncommitted changes)" if git("status", "--porcelain", "bot") else "")
