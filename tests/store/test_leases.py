"""Shards' leases on PostgreSQL (bot.store.leases, bot.holding): taken without waiting,
refused while another connection holds them, released when it closes or is lost, taken
again after a lost connection, and nothing leased on SQLite."""

from __future__ import annotations

import asyncio

import pytest

from bot import holding
from bot.app import why_it_stopped
from bot.config import Config
from bot.store.records import LeaseLost, Shards, ShardsHeld
from bot.store.store import Store


@pytest.fixture
async def leases(postgres_url):
    """A function opening a store's leases on one database, each closed after the test."""
    opened: list = []

    async def lease():
        store = await Store.open(postgres_url)
        found = await store.leases()
        opened.append((store, found))
        return found

    yield lease
    for store, found in opened:
        await found.close()
        await store.close()


def config_for(ids: tuple[int, ...] | None, *, standby: bool = False) -> Config:
    return Config.from_env(
        {
            "DISCORD_TOKEN": "x" * 30,
            "APOPHIS_DATABASE": "postgresql://bot@db/apophis",
            "APOPHIS_SHARD_COUNT": "4",
            "APOPHIS_SHARD_IDS": "standby" if standby else ",".join(map(str, ids or ())),
            "APOPHIS_PROCESSES": "2",
        }
    )


async def test_sqlite_leases_nothing(tmp_path):
    store = await Store.open(tmp_path / "apophis.sqlite3")
    try:
        assert await store.leases() is None
    finally:
        await store.close()


async def test_a_shard_is_held_by_one_connection_until_it_closes(leases):
    first, second = await leases(), await leases()
    assert await first.take([0, 1]) == (0, 1)
    assert await second.take([1, 2]) == (2,)
    assert (first.held, second.held) == ((0, 1), (2,))
    assert await second.holders() == {0, 1, 2}
    await first.close()
    assert await second.holders() == {2}
    assert await second.take([0, 1]) == (0, 1)


async def test_a_lost_connection_takes_its_leases_again_unless_another_took_them(leases):
    first, second = await leases(), await leases()
    await first.count(4)
    await first.take([0, 1])
    first._conn.terminate()  # as a cut network ends it: the server releases its locks
    assert await first.still_held() == (0, 1)  # taken again, or soon: still its own
    await asyncio.wait_for(_until_taken_back(first), 10)
    assert await second.holders() == {0, 1}
    assert await second.count(2) == {4}  # its count said again with them
    assert await second.take([0, 1]) == ()
    first._conn.terminate()
    await asyncio.wait_for(_until_free(second, 0), 10)
    assert await second.take([0]) == (0,)
    assert await first.still_held() == (1,)
    assert first.held == (1,)


async def _until_taken_back(leases) -> None:
    while leases._pending:
        await leases.still_held()


async def _until_free(leases, shard: int) -> None:
    while shard in await leases.holders():
        await asyncio.sleep(0.05)


async def test_held_shards_refuse_a_process_naming_them(leases, postgres_url):
    await (await leases()).take([1])
    refused = await leases()
    with pytest.raises(ShardsHeld, match=r"^shard 1 of 4 is held by another bot process"):
        await holding.hold(config_for((0, 1)), refused)
    await refused.close()  # as its process exits
    alone = Config.from_env({"DISCORD_TOKEN": "x" * 30, "APOPHIS_DATABASE": postgres_url})
    await (await leases()).take([0])  # a process running every shard, on its own
    with pytest.raises(ShardsHeld, match=r"^every shard is held .* \(APOPHIS_SHARD_IDS unset"):
        await holding.hold(alone, await leases())


async def test_a_process_counting_the_shards_otherwise_is_refused(leases, postgres_url):
    assert await holding.hold(config_for((0, 1)), await leases())  # counting 4
    alone = Config.from_env(
        {"DISCORD_TOKEN": "x" * 30, "APOPHIS_DATABASE": postgres_url}  # counting 1: all
    )
    refused = await leases()
    with pytest.raises(ShardsHeld, match=r"APOPHIS_SHARD_COUNT=4, this one with 1: every"):
        await holding.hold(alone, refused)
    await refused.close()  # as its process exits
    standby = await leases()
    assert await standby.count(4) == frozenset()  # alike: none other


async def test_a_standby_takes_only_shards_it_saw_held(leases, monkeypatch):
    monkeypatch.setattr(holding, "STANDBY_SECONDS", 0.01)
    owner, standby = await leases(), await leases()
    await owner.take([0, 1])
    looks = asyncio.Queue()
    holders = standby.holders

    async def counted():
        found = await holders()
        looks.put_nowait(found)
        return found

    monkeypatch.setattr(standby, "holders", counted)
    waiting = asyncio.create_task(holding.hold(config_for(None, standby=True), standby))
    for _ in range(3):  # shards 2-3 free at every look, never held: never taken
        assert await looks.get() == {0, 1}
    assert not waiting.done() and standby.held == ()
    await owner.close()
    taken = await asyncio.wait_for(waiting, 10)
    assert taken.shards == Shards((0, 1), 4) and not taken.standby
    assert standby.held == (0, 1)


async def test_a_process_whose_shards_were_taken_meanwhile_stops(leases, monkeypatch):
    monkeypatch.setattr(holding, "KEEP_SECONDS", 0.01)
    first, second = await leases(), await leases()
    await first.take([0, 1])
    first._conn.terminate()
    await asyncio.wait_for(_until_free(second, 0), 10)
    await second.take([1])
    with pytest.raises(LeaseLost, match=r"^shard 1 were taken over"):
        await asyncio.wait_for(holding.keep(first), 10)


def test_held_shards_are_a_setting_to_fix_and_lost_ones_are_not():
    assert why_it_stopped(ShardsHeld("held")) == ("held", 2)  # the unit leaves it stopped
    assert why_it_stopped(LeaseLost("lost")) == ("lost", 1)  # restarted: held, or refused
