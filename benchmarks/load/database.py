"""The bot's database for a run: an SQLite file, or a database on a throwaway PostgreSQL server."""

from __future__ import annotations

import contextlib
from pathlib import Path

from benchmarks.load.bots import cpu_seconds
from devtools.pgserver import PostgresServer

#: The throwaway PostgreSQL server of a run with --database postgresql (set by the command
#: line, benchmarks/load/cli.py; read here as `database.SERVER`).
SERVER: PostgresServer | None = None


def new_database(args, workdir: Path) -> str:
    """A fresh database for one run: an SQLite file, or a new database on the server."""
    if SERVER is None:
        return str(workdir / "apophis.sqlite3")
    return SERVER.create_database()


def server_cpu() -> float:
    """CPU seconds of the PostgreSQL server and its backends (0 without one)."""
    if SERVER is None or SERVER.process is None:
        return 0.0
    pid_file = SERVER.data / "postmaster.pid"
    postmaster = int(pid_file.read_text().split()[0])
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(entry.name) == postmaster or int(fields[1]) == postmaster:
                    total += cpu_seconds(int(entry.name))
    return total
