"""A worker playing many games is SIGKILLed at random moments; no game is ever lost or broken."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.store.postgres import is_postgresql
from bot.store.store import Store

from .helpers import assert_consistent

ROOT = Path(__file__).resolve().parents[2]
KILLS = 25


async def stored_ids(database: str) -> tuple[list[int], set[int]]:
    """Every game's id and the ids of games with a result, read past the store.

    SQLite's file is also checked for damage (PostgreSQL's client has none to damage).
    """
    games, results = "SELECT id FROM games", "SELECT game_id FROM results"
    if is_postgresql(database):
        conn = await asyncpg.connect(database)
        try:
            return [r[0] for r in await conn.fetch(games)], {
                r[0] for r in await conn.fetch(results)
            }
        finally:
            await conn.close()
    with closing(sqlite3.connect(database)) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        return [r[0] for r in raw.execute(games)], {r[0] for r in raw.execute(results)}


async def check_database(database: str, reported: dict[int, int], checked: dict[int, int]) -> None:
    """Every game is at its last committed version and replays to its stored state.

    `reported` is the last version the worker printed per game (committed for sure);
    the one commit in flight per game at the kill may have landed too. `checked` is
    each game's version at the previous check: unchanged games are not replayed again.
    """
    game_ids, results = await stored_ids(database)
    store = await Store.open(database)
    try:
        for game_id in game_ids:
            record = await store.get_game(game_id)
            assert record.version - reported.get(game_id, 0) in (0, 1), record
            assert (game_id in results) == (
                record.state is not None and record.ended_at is not None
            )
            if checked.get(game_id) != record.version:
                assert_consistent(record, await store.game_log(game_id))
                checked[game_id] = record.version
        open_channels = [game.channel_id for game in await store.load_active_games()]
        assert len(open_channels) == len(set(open_channels))
    finally:
        await store.close()


@pytest.mark.slow
def test_killed_worker_never_loses_or_breaks_a_game(database: str) -> None:
    rng = random.Random(20_240)
    reported: dict[int, int] = {}
    checked: dict[int, int] = {}
    resumed = landed_unreported = 0
    for run in range(KILLS):
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.store.crash_worker", database, str(run)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        before = dict(checked)
        for _ in range(rng.randint(1, 400)):
            line = worker.stdout.readline()
            assert line, f"worker exited early: {worker.communicate()[1]}"
            game_id, version = map(int, line.split())
            resumed += game_id in before and version == before[game_id] + 1 and version > 1
            reported[game_id] = version
        # The randomness under test: how far the worker gets before the kill.
        time.sleep(rng.uniform(0, 0.03))
        worker.send_signal(signal.SIGKILL)
        # Read the rest through the same buffered file that readline() used: communicate()
        # reads the raw pipe, past whatever readline() had already buffered, and can start
        # in the middle of a line.
        rest = worker.stdout.read()
        errors = worker.stderr.read()
        worker.wait()
        assert worker.returncode == -signal.SIGKILL, errors
        # A last line cut short by the kill is not a report.
        for line in rest.splitlines(keepends=True):
            if line.endswith("\n"):
                game_id, version = map(int, line.split())
                reported[game_id] = version

        asyncio.run(check_database(database, reported, checked))
        landed_unreported += sum(checked[g] == reported.get(g, 0) + 1 for g in checked)
        reported.update((game_id, version) for game_id, version in checked.items())

    # The worker really did pick up games left open by the previous kill.
    assert resumed > 0
    print(f"{len(checked)} games; {sum(checked.values())} actions; {resumed} games resumed;")
    print(f"{landed_unreported} times a commit landed but the kill came before its report")
