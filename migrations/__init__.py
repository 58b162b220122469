"""The database schema as numbered plain-SQL files, shipped as package data.

Each file is ``NNNN_name.sql``, numbered from 0001 without gaps; its number is the
schema version the database has once it is applied. bot.store applies them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_NAME = re.compile(r"(\d{4})_(\w+)\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL script."""

    version: int
    name: str
    sql: str


def load() -> tuple[Migration, ...]:
    """Every migration in version order; raises ValueError on a gap or a duplicate number."""
    found: list[Migration] = []
    for entry in resources.files(__name__).iterdir():
        match = _NAME.fullmatch(entry.name)
        if match:
            number, name = match.groups()
            found.append(Migration(int(number), name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise ValueError(f"migrations must be numbered 1..N without gaps, found {numbers}")
    return tuple(found)
