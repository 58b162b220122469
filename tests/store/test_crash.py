"""A worker playing many games is SIGKILLed at random moments; no game is ever lost or broken."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import Store

from .helpers import assert_consistent

ROOT = Path(__file__).resolve().parents[2]
KILLS = 25


async def check_database(path: Path, reported: dict[int, int], checked: dict[int, int]) -> None:
    """Every game is at its last committed version and replays to its stored state.

    `reported` is the last version the worker printed per game (committed for sure);
    the one commit in flight per game at the kill may have landed too. `checked` is
    each game's version at the previous check: unchanged games are not replayed again.
    """
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        game_ids = [game_id for (game_id,) in raw.execute("SELECT id FROM games")]
        results = {game_id for (game_id,) in raw.execute("SELECT game_id FROM results")}
    raw.close()
    store = await Store.open(path)
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
def test_killed_worker_never_loses_or_breaks_a_game(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    rng = random.Random(20_240)
    reported: dict[int, int] = {}
    checked: dict[int, int] = {}
    resumed = landed_unreported = 0
    for run in range(KILLS):
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.store.crash_worker", str(path), str(run)],
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

        asyncio.run(check_database(path, reported, checked))
        landed_unreported += sum(checked[g] == reported.get(g, 0) + 1 for g in checked)
        reported.update((game_id, version) for game_id, version in checked.items())

    # The worker really did pick up games left open by the previous kill.
    assert resumed > 0
    print(f"{len(checked)} games; {sum(checked.values())} actions; {resumed} games resumed;")
    print(f"{landed_unreported} times a commit landed but the kill came before its report")
