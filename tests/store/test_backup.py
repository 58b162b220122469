"""Online backups: consistent copies of a database that is being written."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.store.backup import main
from bot.store.records import StoreError
from bot.store.store import Store
from engine import Game

from .helpers import assert_consistent, commit, next_action, start

ROOT = Path(__file__).resolve().parents[2]


async def assert_backup_consistent(path: Path) -> int:
    """The copy opens, passes integrity_check and every game in it replays; its game count."""
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        game_ids = [game_id for (game_id,) in raw.execute("SELECT id FROM games")]
    raw.close()
    store = await Store.open(path)
    try:
        for game_id in game_ids:
            assert_consistent(await store.get_game(game_id), await store.game_log(game_id))
    finally:
        await store.close()
    return len(game_ids)


async def test_store_backup_while_the_store_keeps_writing(
    tmp_path: Path, db_path: Path, sqlite_store: Store
) -> None:
    store = sqlite_store
    started = [await start(store, [i, i + 50], channel=i, seed=i) for i in range(6)]
    playing = asyncio.Event()

    async def play(game_id: int, game: Game) -> None:
        rng, version = random.Random(game_id), 0
        for _ in range(80):
            action = next_action(game, rng, version)
            version = await commit(store, game_id, version, game, action, now=1_000 + version)
            playing.set()

    players = [asyncio.create_task(play(record.id, game)) for record, game in started]
    await playing.wait()
    size = await store.backup(tmp_path / "copy.sqlite3")
    await asyncio.gather(*players)

    assert size == (tmp_path / "copy.sqlite3").stat().st_size
    assert await assert_backup_consistent(tmp_path / "copy.sqlite3") == 6
    assert not (tmp_path / "copy.sqlite3.partial").exists()
    with pytest.raises(StoreError, match="live database itself"):
        await store.backup(db_path)


class Worker:
    """The crash-test worker writing to a database, its output drained by a thread."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.store.crash_worker", str(path), "1"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.commits = 0
        self._progress = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for _ in self.process.stdout:
            with self._progress:
                self.commits += 1
                self._progress.notify_all()

    def wait_for(self, commits: int) -> None:
        with self._progress:
            assert self._progress.wait_for(lambda: self.commits >= commits, timeout=60)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self._reader.join()
        self.process.stdout.close()


@pytest.mark.parametrize("via", ["--database", "APOPHIS_DATABASE"])
def test_backup_command_copies_a_live_database(tmp_path: Path, via: str) -> None:
    live, copy = tmp_path / "live.sqlite3", tmp_path / "backup.sqlite3"
    worker = Worker(live)
    try:
        worker.wait_for(200)
        before = worker.commits
        args = ["--database", str(live)] if via == "--database" else []
        env = dict(os.environ)
        env.pop("APOPHIS_DATABASE", None)
        if via == "APOPHIS_DATABASE":
            env["APOPHIS_DATABASE"] = str(live)
        result = subprocess.run(
            [sys.executable, "-m", "bot.store.backup", str(copy), *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        worker.wait_for(worker.commits + 50)  # and the worker carries on writing
    finally:
        worker.stop()
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Backed up {live} to {copy}")
    assert worker.commits > before
    assert asyncio.run(assert_backup_consistent(copy)) > 0


def test_backup_command_reports_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.sqlite3"
    assert main([str(tmp_path / "copy.sqlite3"), "--database", str(missing)]) == 1
    assert "Backup failed" in capsys.readouterr().err
    assert not missing.exists()  # never created by a backup
    assert main([str(tmp_path / "no" / "such" / "dir.sqlite3"), "--database", str(missing)]) == 1
    assert "does not exist" in capsys.readouterr().err


async def test_a_postgresql_store_points_to_pg_dump(tmp_path: Path, postgres_url: str) -> None:
    store = await Store.open(postgres_url)
    try:
        with pytest.raises(StoreError, match="pg_dump"):
            await store.backup(tmp_path / "copy.sqlite3")
    finally:
        await store.close()
    assert not (tmp_path / "copy.sqlite3").exists()
