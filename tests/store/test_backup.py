"""Online backups, consistent copies of a database that is being written; and restores: a
backup put back in place, checked first, that the bot then opens with its open games."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import migrations
from bot.lobby_settings import LobbySettings
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
            [sys.executable, "-m", "bot", "backup", str(copy), *args],
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
    assert main(["backup", str(tmp_path / "copy.sqlite3"), "--database", str(missing)]) == 1
    assert "Backup failed" in capsys.readouterr().err
    assert not missing.exists()  # never created by a backup
    dest = tmp_path / "no" / "such" / "dir.sqlite3"
    assert main(["backup", str(dest), "--database", str(missing)]) == 1
    assert "does not exist" in capsys.readouterr().err


async def test_a_postgresql_store_points_to_pg_dump(tmp_path: Path, postgres_url: str) -> None:
    store = await Store.open(postgres_url)
    try:
        with pytest.raises(StoreError, match="pg_dump"):
            await store.backup(tmp_path / "copy.sqlite3")
    finally:
        await store.close()
    assert not (tmp_path / "copy.sqlite3").exists()


def test_the_commands_point_a_postgresql_database_to_its_own_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql://apophis@db.example/apophis"
    assert main(["backup", str(tmp_path / "copy.dump"), "--database", url]) == 1
    assert "pg_dump --format=custom" in capsys.readouterr().err
    assert main(["restore", str(tmp_path / "copy.dump"), "--database", url]) == 1
    assert "pg_restore --clean" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


async def open_games(path: Path) -> list[tuple[int, str, int, tuple[int, ...]]]:
    """The games the bot resumes when it starts on `path`: id, status, version, players."""
    store = await Store.open(path)
    try:
        return [
            (record.id, record.status, record.version, record.players)
            for record in await store.load_active_games()
        ]
    finally:
        await store.close()


async def test_a_backup_restored_into_a_fresh_file_is_the_bot_s_database(
    tmp_path: Path, db_path: Path, sqlite_store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    store = sqlite_store
    for channel in range(3):  # three games under way, each a few moves in
        record, game = await start(store, [channel + 1, channel + 10], channel=channel, seed=9)
        version, rng = 0, random.Random(channel)
        for _ in range(5):
            action = next_action(game, rng, version)
            version = await commit(store, record.id, version, game, action, now=2_000)
    # And a lobby.
    await store.create_lobby(1, 99, 7, LobbySettings("basic", "medium", 15), now=2_000)
    expected = [
        (record.id, record.status, record.version, record.players)
        for record in await store.load_active_games()
    ]
    backup, fresh = tmp_path / "backup.sqlite3", tmp_path / "restored" / "apophis.sqlite3"

    assert main(["backup", str(backup), "--database", str(db_path)]) == 0  # bot running
    fresh.parent.mkdir()
    assert main(["restore", str(backup), "--database", str(fresh)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"Restored {backup} to {fresh}."

    assert [status for _, status, _, _ in expected] == ["active"] * 3 + ["lobby"]
    assert await open_games(fresh) == expected
    assert await assert_backup_consistent(fresh) == 4


async def test_restore_replaces_a_database_only_when_asked_and_never_under_the_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, other = tmp_path / "apophis.sqlite3", tmp_path / "other.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    for path, channel in ((old, 1), (other, 2)):
        store = await Store.open(path)
        await start(store, [1, 2], channel=channel)
        if path == other:
            await store.backup(backup)
        await store.close()
    before = old.read_bytes()

    assert main(["restore", str(backup), "--database", str(old)]) == 1
    assert "add --replace" in capsys.readouterr().err
    running = await Store.open(old)  # the bot, running on it
    try:
        await start(running, [3, 4], channel=3)  # in its WAL, not yet in the file
        assert main(["restore", str(backup), "--database", str(old), "--replace"]) == 1
        assert "stop the bot first" in capsys.readouterr().err
        assert not (tmp_path / "apophis.sqlite3.before-restore").exists()
        assert not (tmp_path / "apophis.sqlite3.partial").exists()
    finally:
        await running.close()
    assert old.read_bytes() != before  # closing folded the WAL in: the new game is there

    assert main(["restore", str(backup), "--database", str(old), "--replace"]) == 0
    kept = tmp_path / "apophis.sqlite3.before-restore"
    assert capsys.readouterr().out.endswith(f"The old database is {kept}.\n")
    assert [game[3] for game in await open_games(old)] == [(1, 2)]  # other's game
    assert [game[3] for game in await open_games(kept)] == [(1, 2), (3, 4)]
    assert not Path(f"{old}-wal").exists() or Path(f"{old}-wal").stat().st_size == 0


async def test_a_backup_from_an_older_bot_is_migrated_when_the_bot_starts(
    tmp_path: Path,
) -> None:
    older = Path(__file__).parent / "data" / "schema7.sqlite3"
    backup, restored = tmp_path / "schema7.sqlite3", tmp_path / "apophis.sqlite3"
    shutil.copy(older, backup)
    assert main(["restore", str(backup), "--database", str(restored)]) == 0
    with sqlite3.connect(restored) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (7,)
    raw.close()
    assert [game[1] for game in await open_games(restored)] == ["lobby"]
    with sqlite3.connect(restored) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (len(migrations.load()),)
    raw.close()


def test_restore_refuses_what_is_not_a_usable_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "apophis.sqlite3"
    not_sqlite, foreign, newer = (tmp_path / name for name in ("a.txt", "b.db", "c.db"))
    not_sqlite.write_text("not a database, but long enough to look like one " * 20)
    with sqlite3.connect(foreign) as raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
    raw.close()
    shutil.copy(Path(__file__).parent / "data" / "schema7.sqlite3", newer)
    with sqlite3.connect(newer) as raw:
        raw.execute(f"PRAGMA user_version = {len(migrations.load()) + 1}")
    raw.close()

    for backup, reason in (
        (tmp_path / "missing.db", "There is no backup file"),
        (not_sqlite, "is not a usable SQLite database"),
        (foreign, "is not a backup of the bot's database"),
        (newer, "restore it with the version of the bot that made it"),
    ):
        assert main(["restore", str(backup), "--database", str(dest)]) == 1
        err = capsys.readouterr().err
        assert reason in err and err.rstrip().endswith("Nothing was changed."), err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt", "b.db", "c.db"]


async def test_each_restore_keeps_the_database_it_replaced_under_a_name_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "apophis.sqlite3"
    wrong, right = tmp_path / "wrong.sqlite3", tmp_path / "right.sqlite3"
    for path, channel in ((live, 1), (wrong, 2), (right, 3)):
        store = await Store.open(path)
        await start(store, [channel, channel + 10], channel=channel)
        await store.close()

    # The wrong backup first, then the right one: the original database survives both.
    kept = []
    for backup in (wrong, right):
        assert main(["restore", str(backup), "--database", str(live), "--replace"]) == 0
        kept.append(Path(capsys.readouterr().out.rstrip().rsplit(" ", 1)[-1].rstrip(".")))
    assert kept == [tmp_path / f"apophis.sqlite3.before-restore{n}" for n in ("", "-2")]
    assert [game[3] for game in await open_games(kept[0])] == [(1, 11)]  # the original
    assert [game[3] for game in await open_games(kept[1])] == [(2, 12)]  # the wrong one
    assert [game[3] for game in await open_games(live)] == [(3, 13)]
    assert main(["restore", str(right), "--database", str(live)]) == 1
    assert "kept as apophis.sqlite3.before-restore-3" in capsys.readouterr().err


def backup_failure(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """`backup ARGS` fails in one line, exit status 1, no traceback: that line."""
    assert main(["backup", *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("Backup failed: ")
    return captured.err


def test_a_backup_that_cannot_be_written_names_the_backup_not_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db_path = tmp_path / "live.sqlite3"
    with sqlite3.connect(db_path) as raw:  # a database of some size
        raw.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, blob BLOB)")
        raw.execute("PRAGMA user_version = 1")
        raw.executemany("INSERT INTO games (blob) VALUES (randomblob(4000))", [()] * 50)
    raw.close()
    before = db_path.read_bytes()

    # A folder as the destination: refused, nothing written beside it.
    folder = tmp_path / "backups"
    folder.mkdir()
    err = backup_failure(capsys, str(folder), "--database", str(db_path))
    assert f"{folder} is a folder" in err and str(db_path) not in err
    assert list(folder.iterdir()) == [] and not (tmp_path / "backups.partial").exists()

    # A folder that takes no new file (/proc, even for root): the backup's fault.
    unwritable = Path("/proc") / "apophis-backup.sqlite3"
    err = backup_failure(capsys, str(unwritable), "--database", str(db_path))
    assert f"cannot be written to {unwritable}" in err and str(db_path) not in err

    # A full disk: the copy is refused its pages, and nothing is left of it.
    connect = sqlite3.connect

    def full_disk(path: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(path, *args, **kwargs)
        if str(path).endswith(".partial"):
            conn.execute("PRAGMA max_page_count = 2")
        return conn

    monkeypatch.setattr(sqlite3, "connect", full_disk)
    copy = tmp_path / "copy.sqlite3"
    err = backup_failure(capsys, str(copy), "--database", str(db_path))
    assert f"cannot be written to {copy}" in err and "disk is full" in err
    assert str(db_path) not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["backups", "live.sqlite3"]
    assert db_path.read_bytes() == before
