"""The database schema as numbered plain-SQL files, shipped as package data.

Each file is ``NNNN_name.sql``, numbered from 0001 without gaps; its number is the
schema version the database has once it is applied. bot.store.sqlite and bot.store.postgres
apply them.

One sequence serves both backends. A file is written in the SQL both understand, as
SQLite reads it: PostgreSQL reads its ``INTEGER`` as ``BIGINT`` and ``REAL`` as
``DOUBLE PRECISION`` (SQLite's are 64 bits; Discord ids need them), and leaves out
SQLite's storage hint ``WITHOUT ROWID`` (its tables have none). Where the SQL
cannot be shared (triggers, an auto-numbered key, SQLite's typeless columns), the
same number has a PostgreSQL variant beside it, ``NNNN_name.postgresql.sql``, that
builds the same schema in PostgreSQL's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

DIALECTS = ("sqlite", "postgresql")
_NAME = re.compile(r"(\d{4})_(\w+)(?:\.(postgresql))?\.sql")
#: How PostgreSQL reads a shared file: SQLite's 64-bit types by their PostgreSQL names,
#: without SQLite's storage hint.
_FOR_POSTGRESQL = (
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT\s+ROWID\b"), ")"),
)


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL script."""

    version: int
    name: str
    sql: str


def load(dialect: str = "sqlite") -> tuple[Migration, ...]:
    """Every migration in version order for a dialect; ValueError on a gap or a duplicate."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    shared: dict[int, Migration] = {}
    variants: dict[int, Migration] = {}
    for entry in resources.files(__name__).iterdir():
        match = _NAME.fullmatch(entry.name)
        if match:
            number, name, variant = match.groups()
            found = variants if variant else shared
            if int(number) in found:
                raise ValueError(f"two migrations are numbered {number}")
            found[int(number)] = Migration(int(number), name, entry.read_text(encoding="utf-8"))
    numbers = sorted(shared)
    if numbers != list(range(1, len(shared) + 1)):
        raise ValueError(f"migrations must be numbered 1..N without gaps, found {numbers}")
    for number, variant in variants.items():
        if number not in shared or shared[number].name != variant.name:
            raise ValueError(
                f"the PostgreSQL variant {number:04d}_{variant.name} has no shared file"
            )
    if dialect == "sqlite":
        return tuple(shared[n] for n in numbers)
    return tuple(variants.get(n) or _for_postgresql(shared[n]) for n in numbers)


def _for_postgresql(migration: Migration) -> Migration:
    sql = migration.sql
    for sqlite_words, postgresql_words in _FOR_POSTGRESQL:
        sql = sqlite_words.sub(postgresql_words, sql)
    return Migration(migration.version, migration.name, sql)
