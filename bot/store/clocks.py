"""Games' clocks across restarts: frozen at a planned shutdown, resumed at start-up (after
a crash, from when the bot was last known alive), and the heartbeat that tells when, as
transactions (bot.store.transactions) for both backends."""

from __future__ import annotations

from bot.store.games import IS_OPEN, in_shards, load_open_games
from bot.store.meta import get_meta, set_meta
from bot.store.records import GameRecord, Shards
from bot.store.transactions import Transaction, count

#: The meta key of the heartbeat of a process running every server (unix time it was
#: last known alive); a process running some shards beats for each (`heartbeat_key`).
LAST_ALIVE = "last_alive"


def heartbeat_key(shard: int, shard_count: int) -> str:
    """The meta key of a shard's heartbeat (the plain one for an unsharded bot)."""
    return LAST_ALIVE if shard_count == 1 else f"{LAST_ALIVE}:{shard}/{shard_count}"


def touch_alive(shards: Shards, now: float) -> Transaction[None]:
    for shard in sorted(set(shards.ids)):
        yield from set_meta(heartbeat_key(shard, shards.count), now)


def freeze_clocks(shards: Shards, now: float) -> Transaction[int]:
    query = (
        "UPDATE games {open_index} SET clock_remaining = {greatest}(clock_deadline - ?, 0), "
        f"clock_deadline = NULL WHERE {IS_OPEN} AND clock_deadline IS NOT NULL"
        f"{in_shards(shards)}"
    )
    return (yield count(query, now))


def resume_clocks(shards: Shards, now: float) -> Transaction[list[GameRecord]]:
    for shard in sorted(set(shards.ids)):
        one_shard = Shards((shard,), shards.count)
        # Clocks left running by a crash stopped when the shard was last known alive
        # (a shard that never beat on its own: when the unsharded bot last did).
        alive = yield from get_meta(heartbeat_key(shard, shards.count))
        if alive is None and shards.count > 1:
            alive = yield from get_meta(LAST_ALIVE)
        query = (
            "UPDATE games {open_index} SET clock_remaining = {greatest}(clock_deadline - "
            "{greatest}(updated_at, ?), 0), clock_deadline = NULL "
            f"WHERE {IS_OPEN} AND clock_deadline IS NOT NULL{in_shards(one_shard)}"
        )
        yield count(query, alive or 0.0)
    query = (
        "UPDATE games {open_index} SET clock_deadline = ? + clock_remaining, "
        f"clock_remaining = NULL WHERE {IS_OPEN} AND clock_remaining IS NOT NULL"
        f"{in_shards(shards)}"
    )
    yield count(query, now)
    yield from touch_alive(shards, now)
    return (yield from load_open_games(shards))
