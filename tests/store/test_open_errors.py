"""Databases the store must refuse at start-up, with a clear error, leaving the file untouched."""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import migrations
from bot.store.records import CorruptDatabase, SchemaTooNew, UnreadableDatabase
from bot.store.store import Store

from .helpers import start

ROOT = Path(__file__).resolve().parents[2]

# Store.open in a child process; prints the error's class name and message as JSON.
OPEN_SCRIPT = """
import asyncio, json, sys
from bot.store.records import StoreError
from bot.store.store import Store

async def main():
    try:
        store = await Store.open(sys.argv[1])
    except StoreError as exc:
        print(json.dumps([type(exc).__name__, str(exc)]))
    else:
        await store.close()
        print(json.dumps(["opened", ""]))

asyncio.run(main())
"""
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def drop_permission_override() -> None:
    """In a child of root: lose the capabilities that let root ignore file permissions."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def open_in_child(path: Path) -> tuple[str, str]:
    """Store.open in a process that file permissions apply to, even when tests run as root."""
    result = subprocess.run(
        [sys.executable, "-c", OPEN_SCRIPT, str(path)],
        cwd=ROOT,
        preexec_fn=drop_permission_override if os.geteuid() == 0 else None,
        capture_output=True,
        text=True,
        check=True,
    )
    name, message = json.loads(result.stdout)
    return name, message


@pytest.fixture
async def database(tmp_path: Path) -> Path:
    """A real database with a game in it, closed."""
    path = tmp_path / "apophis.sqlite3"
    store = await Store.open(path)
    await start(store, [1, 2, 3], channel=1)
    await store.close()
    return path


@pytest.fixture
def permissions_apply(tmp_path: Path) -> None:
    """Skip when even a child process cannot be made subject to file permissions."""
    probe = tmp_path / "probe"
    probe.write_text("")
    probe.chmod(0o444)
    try:
        subprocess.run(
            [sys.executable, "-c", f"open({str(probe)!r}, 'a')"],
            preexec_fn=drop_permission_override if os.geteuid() == 0 else None,
            check=True,
            capture_output=True,
        )
    except (subprocess.CalledProcessError, subprocess.SubprocessError):
        return
    pytest.skip("file permissions cannot be enforced here (root without CAP_SETPCAP?)")


async def test_garbage_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "apophis.sqlite3"
    path.write_bytes(random.Random(1).randbytes(16_384))
    before = digest(path)
    with pytest.raises(CorruptDatabase, match="not an SQLite database"):
        await Store.open(path)
    assert digest(path) == before


async def test_a_damaged_database_is_refused_and_left_alone(database: Path) -> None:
    store = await Store.open(database)
    for channel in range(2, 40):
        await start(store, [channel], channel=channel)
    await store.close()
    data = bytearray(database.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    # Keep the header page, scramble the rest: the file still claims to be a database.
    data[page:] = random.Random(2).randbytes(len(data) - page)
    database.write_bytes(data)
    before = digest(database)
    with pytest.raises(CorruptDatabase):
        await Store.open(database)
    assert digest(database) == before


async def test_a_newer_schema_is_refused_and_left_alone(database: Path) -> None:
    newer = len(migrations.load()) + 1
    with sqlite3.connect(database) as conn:
        conn.execute(f"PRAGMA user_version = {newer}")
    conn.close()
    before = digest(database)
    with pytest.raises(SchemaTooNew, match=f"schema version {newer}.*newer version of the bot"):
        await Store.open(database)
    assert digest(database) == before


async def test_a_folder_instead_of_a_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnreadableDatabase):
        await Store.open(tmp_path)


def test_the_child_opens_a_healthy_database(database: Path, permissions_apply: None) -> None:
    assert open_in_child(database) == ("opened", "")


def test_a_read_only_database_is_refused_and_left_alone(
    database: Path, permissions_apply: None
) -> None:
    before = digest(database)
    database.chmod(0o444)
    name, message = open_in_child(database)
    assert name == "ReadOnlyDatabase"
    assert "can be read but not written" in message and str(database) in message
    assert digest(database) == before


def test_an_unreadable_database_is_refused_and_left_alone(
    database: Path, permissions_apply: None
) -> None:
    before = database.read_bytes()
    database.chmod(0o000)
    name, message = open_in_child(database)
    assert name == "UnreadableDatabase"
    assert "cannot be opened or read" in message
    database.chmod(0o644)
    assert database.read_bytes() == before
