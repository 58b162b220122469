"""Fixtures for the store tests: the same tests run on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.store import Store

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "apophis.sqlite3"


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """A new database of each backend: an SQLite file's path, or a postgresql:// URL."""
    if request.param == "sqlite":
        return str(db_path)
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[Store]:
    """For what only SQLite has (pragmas, its file, online backups)."""
    opened = await Store.open(db_path)
    yield opened
    await opened.close()
