"""The migrations on PostgreSQL: the same sequence builds the same schema as on SQLite."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

import migrations
from bot.store.postgres import migrate, schema_version
from bot.store.records import MigrationFailed, SchemaTooNew, UnreachableDatabase
from bot.store.store import Store

from .test_migrations import SEED

MIGRATIONS = migrations.load("postgresql")
# PostgreSQL keeps meta values as JSON: the seed's number is written as JSON text.
PG_SEED = {**SEED, 1: SEED[1].replace("('last_alive', 3.0)", "('last_alive', '3.0')")}
assert PG_SEED[1] != SEED[1]


async def table_rows(conn: asyncpg.Connection) -> dict[str, list[tuple]]:
    """Every row of every table of ours, for before/after comparisons."""
    query = "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
    tables = [row[0] for row in await conn.fetch(query)]
    return {
        # In a stable order: PostgreSQL may return rows in another order after an ALTER.
        table: sorted((tuple(row) for row in await conn.fetch(f"SELECT * FROM {table}")), key=repr)
        for table in tables
    }


def test_one_sequence_for_both_backends() -> None:
    shared = migrations.load("sqlite")
    assert [(m.version, m.name) for m in MIGRATIONS] == [(m.version, m.name) for m in shared]
    for migration in MIGRATIONS:
        header = migration.sql.lstrip().splitlines()[:4]
        assert header[0].startswith(f"-- {migration.version:04d}:"), migration.name
        assert any(line.startswith("-- Why:") for line in header), migration.name


def test_postgresql_reads_a_shared_file_in_its_own_words() -> None:
    shared = migrations.Migration(
        9,
        "example",
        "CREATE TABLE t (id INTEGER PRIMARY KEY, at REAL, realm TEXT) WITHOUT ROWID;\n"
        "ALTER TABLE guild_settings ADD COLUMN flag INTEGER NOT NULL DEFAULT 1;\n",
    )
    assert migrations._for_postgresql(shared).sql == (
        "CREATE TABLE t (id BIGINT PRIMARY KEY, at DOUBLE PRECISION, realm TEXT);\n"
        "ALTER TABLE guild_settings ADD COLUMN flag BIGINT NOT NULL DEFAULT 1;\n"
    )


@pytest.mark.parametrize("migration", MIGRATIONS, ids=lambda m: f"{m.version:04d}_{m.name}")
async def test_each_migration_applies_on_the_previous_schema_with_data(
    postgres_url: str, migration: migrations.Migration
) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await migrate(conn, MIGRATIONS[: migration.version - 1])
        for version in range(1, migration.version):
            await conn.execute(PG_SEED[version])
        before = await table_rows(conn)

        await migrate(conn, MIGRATIONS[: migration.version])
        assert await schema_version(conn) == migration.version
        after = await table_rows(conn)
        before.pop("schema_version", None)
        # Rows keep their values (a migration may add columns after the old ones).
        kept = {
            t: [row[: len(before[t][0])] for row in after[t]] if before[t] else after[t]
            for t in before
        }
        assert kept == before
        await conn.execute(PG_SEED[migration.version])
    finally:
        await conn.close()


async def test_both_backends_build_the_same_tables_and_columns(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "db.sqlite3"
    await (await Store.open(path)).close()
    await (await Store.open(postgres_url)).close()
    with closing(sqlite3.connect(path)) as raw:
        names = "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
        sqlite_schema = {
            table: [row[1] for row in raw.execute(f"PRAGMA table_info({table})")]
            for (table,) in raw.execute(names).fetchall()
        }
        sqlite_indexes = {
            name
            for (name,) in raw.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
    conn = await asyncpg.connect(postgres_url)
    try:
        query = (
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        )
        pg_schema: dict[str, list[str]] = {}
        for table, column in await conn.fetch(query):
            pg_schema.setdefault(table, []).append(column)
        query = "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
        pg_indexes = {row[0] for row in await conn.fetch(query)}
        # Discord ids need 64 bits: no 32-bit integer column anywhere.
        query = (
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type IN ('integer', 'smallint', 'real')"
        )
        narrow = [tuple(row) for row in await conn.fetch(query)]
    finally:
        await conn.close()
    assert pg_schema.pop("schema_version") == ["version"]
    assert pg_schema == sqlite_schema
    assert sqlite_indexes <= pg_indexes
    assert narrow == [("schema_version", "version")]


async def test_the_store_reads_data_written_under_every_schema(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        for migration in MIGRATIONS:
            await migrate(conn, MIGRATIONS[: migration.version])
            await conn.execute(PG_SEED[migration.version])
    finally:
        await conn.close()
    store = await Store.open(postgres_url)
    try:
        lobby, active, elsewhere = await store.load_active_games()
        assert (lobby.id, lobby.status, lobby.players) == (1, "lobby", (7,))
        assert (active.id, active.players, active.version) == (2, (8, 9), 1)
        assert (elsewhere.reach, lobby.reach) == ("interactions", "channel")
        assert await store.get_meta("last_alive") == 3.0
        settings = await store.get_guild_settings(10)
        assert (settings.moderator_role_id, settings.turn_pings) == (55, False)
        assert await store.get_hand_dm(2, 9) == 900
        assert lobby.invited == (9, 8) and settings.autopilot_seconds == 60
        assert (active.parent_channel_id, lobby.parent_channel_id, settings.threads) == (
            100,
            None,
            True,
        )
        # 11's row predates the autopilot on by default: 0 there is "off", and stays so;
        # 12's is made after it, and 13 has none yet: both have the default, 90 s.
        assert await store.autopilot_delays() == {10: 60, 11: 0, 12: 90}
        assert (await store.get_guild_settings(13)).autopilot_seconds == 90
        assert [win.game_id for win in (await store.stats(10)).fastest_wins] == [2]
    finally:
        await store.close()


async def test_a_newer_schema_is_refused_and_left_alone(postgres_url: str) -> None:
    await (await Store.open(postgres_url)).close()
    newer = len(MIGRATIONS) + 1
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("UPDATE schema_version SET version = $1", newer)
        with pytest.raises(SchemaTooNew, match=f"schema version {newer}.*newer version"):
            await Store.open(postgres_url)
        assert await schema_version(conn) == newer
    finally:
        await conn.close()


async def test_a_failing_migration_changes_nothing(postgres_url: str) -> None:
    broken = migrations.Migration(
        len(MIGRATIONS) + 1,
        "broken",
        "CREATE TABLE half_done (x BIGINT);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    conn = await asyncpg.connect(postgres_url)
    try:
        named = rf"migrations/{len(MIGRATIONS) + 1:04d}_broken\.sql .*no_such_table"
        with pytest.raises(MigrationFailed, match=named):
            await migrate(conn, [*MIGRATIONS, broken])
        assert await schema_version(conn) == len(MIGRATIONS)
        assert await conn.fetchval("SELECT to_regclass('half_done')") is None
    finally:
        await conn.close()


async def test_an_unreachable_database_is_a_clear_error(postgres_server) -> None:
    url = postgres_server.url("no_such_database").replace("postgres@", "postgres:secret@")
    with pytest.raises(UnreachableDatabase, match="no_such_database") as caught:
        await Store.open(url)
    assert "secret" not in str(caught.value)
