"""A database written by the bot before the game night (schema 7, tests/store/data) upgrades
in place with nothing lost, on SQLite and on PostgreSQL, and its games count in profiles,
history and replays."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import asyncpg

import migrations
from bot.store.store import Store
from bot.views import history
from engine import Game

#: Written by the bot at commit 5b87eb3 (tests/store/data/README.md says how): three games
#: played to their end in server 77 (one with an AI crewmate), a lobby, the server's
#: settings and a player's locale.
OLDER = Path(__file__).parent / "data" / "schema7.sqlite3"
#: The same, written on PostgreSQL by that commit and dumped (pg_dump --inserts).
OLDER_POSTGRESQL = Path(__file__).parent / "data" / "schema7.postgresql.sql"
MIGRATIONS = migrations.load("postgresql")


def rows(path: Path, query: str) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(query).fetchall()


async def upgraded_and_read(store: Store) -> None:
    """The older database, opened (so upgraded): what it held, and its games counted."""
    (lobby,) = await store.load_active_games()
    assert (lobby.id, lobby.status, lobby.players) == (4, "lobby", (11, 12))
    settings = await store.get_guild_settings(77)
    assert (settings.default_difficulty, settings.turn_pings, settings.language) == (
        "hard",
        False,
        "fr",
    )
    assert await store.get_user_locale(11) == "fr"
    # The older games are in the history, each replays to its stored result through the
    # engine, and their launches count in the profiles (backfilled from the logs).
    ended = await store.recent_games(77, 10)
    assert [game.id for game in ended] == [3, 2, 1]
    launches = 0  # those people started (a crewmate's count for nobody)
    for game in ended:
        log = await store.game_log(game.id)
        assert len(history.replay(game, log, "en").moves) == len(log) + 1
        launches += sum(
            e["kind"] == "launch_started" and e["player"] > 0 for entry in log for e in entry.events
        )
    profiles = [await store.profile(77, user) for user in (11, 12, 13, 14, 15, 16)]
    assert sum(t.games for p in profiles for t in p.tallies) == 3 + 1 + 4  # people a game
    assert launches and sum(t.launches for p in profiles for t in p.tallies) == launches
    crewed = [t for t in profiles[0].tallies if t.with_crewmates]
    assert [(t.rules, t.games) for t in crewed] == [("advanced", 1)]


async def test_a_schema_7_database_upgrades_in_place_with_nothing_lost(tmp_path: Path) -> None:
    path = tmp_path / "apophis.sqlite3"
    shutil.copy(OLDER, path)
    before = {
        table: rows(path, f"SELECT * FROM {table} ORDER BY 1, 2")
        for table in ("games", "players", "actions", "results", "guild_settings")
    }
    assert rows(path, "PRAGMA user_version") == [(7,)]
    store = await Store.open(str(path))
    try:
        await upgraded_and_read(store)
    finally:
        await store.close()
    assert rows(path, "PRAGMA user_version") == [(len(migrations.load()),)]
    # Every row is kept, with its values (new columns come after the old ones).
    for table, old in before.items():
        new = rows(path, f"SELECT * FROM {table} ORDER BY 1, 2")
        assert [row[: len(old[0])] for row in new] == old, table
    states = rows(path, "SELECT state FROM games WHERE state IS NOT NULL")
    assert all(Game.restore(json.loads(state)).is_over for (state,) in states)


async def test_a_schema_7_postgresql_database_upgrades_in_place_with_nothing_lost(
    postgres_url: str,
) -> None:
    # pg_dump's own lines for psql (\restrict) are left out: the rest is plain SQL.
    dump = OLDER_POSTGRESQL.read_text(encoding="utf-8")
    sql = "\n".join(line for line in dump.splitlines() if not line.startswith("\\"))
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(sql)
        await conn.execute("SET search_path = public")
        assert await conn.fetchval("SELECT version FROM schema_version") == 7
        before = {
            table: sorted(map(tuple, await conn.fetch(f"SELECT * FROM {table}")), key=repr)
            for table in ("games", "players", "actions", "results", "guild_settings")
        }
    finally:
        await conn.close()
    store = await Store.open(postgres_url)
    try:
        await upgraded_and_read(store)
    finally:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT version FROM schema_version") == len(MIGRATIONS)
        for table, old in before.items():
            new = sorted(map(tuple, await conn.fetch(f"SELECT * FROM {table}")), key=repr)
            assert [row[: len(old[0])] for row in new] == old, table
    finally:
        await conn.close()
