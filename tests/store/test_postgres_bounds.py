"""PostgreSQL with bounds: a frozen, stopped or not-yet-started server never leaves a call,
a shutdown or a start-up waiting without end; a process holds its shards again once a
restarted server is back.

The tests here share a server of their own, from the machine's binaries like the
session's: they freeze and stop it, and leave it running.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.app import why_it_stopped
from bot.store import postgres
from bot.store.postgres import PostgresDatabase
from bot.store.records import DatabaseNotUp, StoreBusy, UnreachableDatabase
from bot.store.store import Store
from devtools.pgserver import PostgresServer, unavailable_reason
from devtools.processes import SHARDS, BotProcess, open_game, play
from tests.bot.helpers import Scene, start_bot_process

from .helpers import start

#: Discord's time to answer an interaction: every call must end well inside it.
DISCORD_ANSWER_SECONDS = 3.0


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    with PostgresServer() as started:
        yield started


@pytest.fixture
async def store(server: PostgresServer) -> AsyncIterator[Store]:
    opened = await Store.open(server.create_database())
    yield opened
    await asyncio.wait_for(opened.close(), 10)


async def timed(call) -> tuple[BaseException | None, float]:
    """What a call raised (None if nothing), and how long it took."""
    began = time.monotonic()
    try:
        await asyncio.wait_for(call, 30)  # far beyond the bound: a hang fails, not blocks
    except (StoreBusy, TimeoutError) as exc:
        return exc, time.monotonic() - began
    return None, time.monotonic() - began


async def test_a_frozen_server_answers_busy_in_time_and_the_store_recovers(server, store):
    record, _ = await start(store, [1, 2], channel=10)
    with server.frozen():
        for call in (store.ready(), store.get_game(record.id)):
            raised, took = await timed(call)
            assert isinstance(raised, StoreBusy), raised
            assert took < DISCORD_ANSWER_SECONDS
    assert (await store.get_game(record.id)).id == record.id  # thawed: served again
    await store.ready()


async def test_closing_ends_with_the_server_frozen(server, store):
    await asyncio.gather(
        *(start(store, [1, 2], channel=20 + k) for k in range(4))
    )  # a few connections
    with server.frozen():
        began = time.monotonic()
        await asyncio.wait_for(store.close(), 10)
        assert time.monotonic() - began < 2.0


async def test_a_stopped_server_answers_busy_and_is_used_again_once_it_runs(server, store):
    record, _ = await start(store, [1, 2], channel=30)
    server.halt()
    try:
        raised, took = await timed(store.get_game(record.id))
    finally:
        await asyncio.to_thread(server.run)
    assert isinstance(raised, StoreBusy) and took < DISCORD_ANSWER_SECONDS, raised
    assert (await store.get_game(record.id)).status == "active"


class Heard(logging.Handler):
    """Sets an event when a record containing `words` is logged."""

    def __init__(self, words: str) -> None:
        super().__init__(logging.WARNING)
        self.words, self.event, self.lines = words, asyncio.Event(), []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        if self.words in record.getMessage():
            self.event.set()


@pytest.fixture
def heard() -> Iterator[Heard]:
    handler = Heard("cannot be reached yet")
    logger = logging.getLogger("bot.store")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


async def test_start_up_waits_for_a_server_that_comes_up(server, heard):
    url = server.create_database().replace("postgres@", "postgres:secret@")  # trusted anyway
    server.halt()
    opening = asyncio.create_task(PostgresDatabase.open(url))
    try:
        await asyncio.wait_for(heard.event.wait(), 10)  # it tried, and said it would try again
        assert not opening.done()
    finally:
        await asyncio.to_thread(server.run)
    database = await asyncio.wait_for(opening, 30)
    await database.ready()
    await database.close()
    assert heard.lines and not any("secret" in line for line in heard.lines)


async def test_a_server_never_up_stops_start_up_with_a_status_the_service_retries(
    tmp_path, heard, monkeypatch
):
    url = f"postgresql://postgres@/apophis?host={tmp_path}"  # no server listens there
    monkeypatch.setattr(postgres, "OPEN_PATIENCE", 1.5)
    with pytest.raises(DatabaseNotUp) as raised:
        await PostgresDatabase.open(url)
    assert heard.event.is_set()
    assert "after trying for 2 s" in str(raised.value)
    assert why_it_stopped(raised.value) == (str(raised.value), 1)


async def test_a_refused_connection_is_not_tried_again(server, heard):
    with pytest.raises(UnreachableDatabase) as raised:
        await PostgresDatabase.open(server.url("no_such_database"))
    assert not isinstance(raised.value, DatabaseNotUp)
    assert "refused the connection" in str(raised.value)
    assert why_it_stopped(raised.value)[1] == 3
    assert not heard.event.is_set()


@pytest.mark.e2e
async def test_a_bot_on_a_frozen_server_answers_busy_and_stops_in_time(server, fake_discord):
    url = server.create_database()
    process = await start_bot_process(fake_discord, url)
    scene = Scene(fake_discord, None, names=("ann", "bob"))
    try:
        await scene.cmd("apophis new", "ann")
        with server.frozen():
            # Answered (the fake refuses an answer later than Discord's 3 seconds), busy.
            reply = await scene.cmd("apophis join", "bob")
            assert reply.ephemeral and "try again" in reply.response_data["content"]
            process.send_signal(signal.SIGTERM)
            # Stopped cleanly, long before the unit's 20 s (as measured alone: about 2 s).
            assert await asyncio.wait_for(process.wait(), 15) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.e2e
async def test_a_process_holds_its_shards_again_after_the_server_restarts(server, fake_discord):
    url = server.create_database()
    scene = Scene(fake_discord, None, names=("ann", "bob"), shard=(0, SHARDS))
    store = await Store.open(url)
    processes: list[BotProcess] = []
    try:
        owner = await BotProcess.start(fake_discord, url, "0-1")
        processes.append(owner)
        version = await open_game(scene, store, moves=1)
        server.halt()
        await asyncio.to_thread(server.run)
        await owner.said("connection was lost: shards 0, 1 held again")
        rival = await BotProcess.launch(fake_discord, url, "1")  # still refused
        processes.append(rival)
        assert await rival.ended() == 2 and "shard 1 of 4 is held" in rival.log[-1]
        assert await play(scene, store, 1) == version + 1
        assert owner.process.returncode is None
    finally:
        for process in processes:
            await process.stop()
        await store.close()
