"""A worker playing many games is SIGKILLed at random moments; no game is ever lost or broken."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import sqlite3
import time
from contextlib import closing

import asyncpg
import pytest

from bot.store.postgres import is_postgresql
from bot.store.store import Store

from . import crash_worker
from .helpers import assert_consistent

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


#: Workers are forked from a server that has imported the worker (and the store, the engine,
#: asyncpg...) once: a new interpreter importing them all again took most of the test's time.
FORKS = multiprocessing.get_context("forkserver")
FORKS.set_forkserver_preload(["tests.store.crash_worker"])


class Worker:
    """The crash-test worker (tests/store/crash_worker.py) playing on `database` in a
    process of its own, its lines read from `stdout`."""

    def __init__(self, database: str, seed: int) -> None:
        out, out_end = FORKS.Pipe(duplex=False)
        err, err_end = FORKS.Pipe(duplex=False)
        self.process = FORKS.Process(
            target=crash_worker.run_forked, args=(database, seed, out_end, err_end)
        )
        self.process.start()
        out_end.close()  # the worker's ends: its exit (or kill) is the end of each file
        err_end.close()
        self.stdout = os.fdopen(os.dup(out.fileno()), encoding="utf-8")
        self.stderr = os.fdopen(os.dup(err.fileno()), encoding="utf-8")
        out.close()
        err.close()

    def stop(self) -> str:
        """Wait for the worker to end (killed, or failed); what it wrote on stderr."""
        errors = self.stderr.read()
        self.process.join()
        self.stdout.close()
        self.stderr.close()
        return errors


@pytest.mark.slow
def test_killed_worker_never_loses_or_breaks_a_game(database: str) -> None:
    rng = random.Random(20_240)
    reported: dict[int, int] = {}
    checked: dict[int, int] = {}
    resumed = landed_unreported = 0
    for run in range(KILLS):
        worker = Worker(database, run)
        before = dict(checked)
        for _ in range(rng.randint(1, 400)):
            line = worker.stdout.readline()
            assert line, f"worker exited early: {worker.stop()}"
            game_id, version = map(int, line.split())
            resumed += game_id in before and version == before[game_id] + 1 and version > 1
            reported[game_id] = version
        # The randomness under test: how far the worker gets before the kill.
        time.sleep(rng.uniform(0, 0.03))
        worker.process.kill()  # SIGKILL
        # Read the rest through the same buffered file that readline() used: reading the
        # raw pipe would start past whatever readline() had already buffered, maybe in
        # the middle of a line.
        rest = worker.stdout.read()
        errors = worker.stop()
        assert worker.process.exitcode == -signal.SIGKILL, errors
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
