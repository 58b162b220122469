"""The store's readiness: its database takes writes, and an SQLite file is still at its path."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.store.records import DatabaseGone, StoreBusy
from bot.store.store import Store


async def test_a_database_that_takes_writes_is_ready_and_unchanged(store: Store) -> None:
    before = await store.load_active_games()
    await store.ready()
    await store.ready()
    assert await store.load_active_games() == before


async def test_not_ready_while_another_connection_holds_the_writes(
    store: Store, database: str
) -> None:
    if database.startswith("postgresql://"):
        other = await asyncpg.connect(database)
        held = other.transaction()
        await held.start()
        await other.execute("LOCK TABLE schema_version IN EXCLUSIVE MODE")
        try:
            with pytest.raises(StoreBusy):
                await store.ready()
        finally:
            await held.rollback()
            await other.close()
    else:
        with closing(sqlite3.connect(database, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy):
                await store.ready()
            other.execute("ROLLBACK")
    await store.ready()


async def test_not_ready_once_the_file_is_deleted(sqlite_store: Store, db_path: Path) -> None:
    await sqlite_store.ready()
    db_path.unlink()
    with pytest.raises(DatabaseGone, match="was deleted, moved or replaced while the bot ran"):
        await sqlite_store.ready()


async def test_not_ready_once_another_file_took_its_place(
    sqlite_store: Store, db_path: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.sqlite3"
    opened = await Store.open(other)
    await opened.close()
    os.replace(other, db_path)
    with pytest.raises(DatabaseGone, match="Stop the bot and put the database back"):
        await sqlite_store.ready()
