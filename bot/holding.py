"""The shards this process holds: leased before log-in, refused when held, taken over by a standby.

On PostgreSQL, where several processes may run the bot, a process takes its shards'
leases (bot.store.leases) right after opening the database: before it loads a game,
posts anything or logs in to Discord. Shards another process holds stop it at once
(`ShardsHeld`, one line naming them). A standby (APOPHIS_SHARD_IDS=standby) holds no
shard: it watches the leases, and when shards it saw held are free again (their process
stopped, was killed, or fell silent) it takes them and runs exactly those from then on,
as their own process would after a restart. While the process runs, `keep` checks its
leases; a connection lost is made again and the leases taken again, and shards another
process took meanwhile stop this one (`LeaseLost`). Alone on SQLite nothing is leased.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

from bot.config import Config
from bot.store.database import Leases
from bot.store.records import LeaseLost, ShardsHeld, StoreBusy

log = logging.getLogger("bot")
#: How often a standby looks at the leases.
STANDBY_SECONDS = 2.0
#: How often a running process checks that it still holds its leases.
KEEP_SECONDS = 5.0


def listed(ids: tuple[int, ...] | list[int]) -> str:
    """Shard ids as a host reads them: ``shard 1``, ``shards 0, 1``."""
    return ("shard " if len(ids) == 1 else "shards ") + ", ".join(map(str, ids))


async def hold(config: Config, leases: Leases) -> Config:
    """Take this process's shards' leases (ShardsHeld if another process holds any), or,
    for a standby, wait for shards to take over: the configuration of the shards held."""
    await _counted_alike(config, leases)
    if config.standby:
        return await _stand_by(config, leases)
    wanted = config.shards.ids
    if not wanted:  # the live table alone: every shard's tables, no game of its own
        log.info("holding no shard: serving the live table of every shard")
        return config
    taken = await leases.take(wanted)
    held = sorted(set(wanted) - set(taken))
    if held:
        if config.shard_ids is None:  # one process running them all
            what, setting = "every shard is", "APOPHIS_SHARD_IDS unset: every shard"
        else:
            verb = "is" if len(held) == 1 else "are"
            what = f"{listed(held)} of {config.shard_count} {verb}"
            setting = f"APOPHIS_SHARD_IDS={','.join(map(str, wanted))}"
        raise ShardsHeld(
            f"{what} held by another bot process running now ({setting}): give this "
            "process shards no other runs, or APOPHIS_SHARD_IDS=standby to take over when "
            "that one stops."
        )
    log.info("holding the leases of %s", listed(taken))
    return config


async def _counted_alike(config: Config, leases: Leases) -> None:
    """ShardsHeld if a process runs counting the shards otherwise: its shards would cover
    the servers of other processes'."""
    count = config.shards.count if config.shard_count is None else config.shard_count
    others = sorted(await leases.count(count))
    if others:
        raise ShardsHeld(
            f"another bot process is running with APOPHIS_SHARD_COUNT="
            f"{','.join(map(str, others))}, this one with {count}: every process needs the "
            "same APOPHIS_SHARD_COUNT (stop them all to change it)."
        )


async def _stand_by(config: Config, leases: Leases) -> Config:
    """Watch the leases until shards seen held are free, and take them."""
    assert config.shard_count is not None, "a standby's shards are counted (bot.config)"
    log.info("standing by: ready to run the shards of a bot process that stops")
    seen: set[int] = set()
    while True:
        try:
            held = await leases.holders()
            if held - seen:
                seen |= held
                log.info("standing by for %s", listed(sorted(seen)))
            lapsed = sorted(seen - held)
            taken = await leases.take(lapsed) if lapsed else ()
        except StoreBusy as exc:
            log.warning("standing by, but the database cannot be reached: %s", exc)
            taken = ()
        if taken:
            log.warning("taking over %s: their process stopped", listed(taken))
            return dataclasses.replace(config, shard_ids=taken, standby=False)
        await asyncio.sleep(STANDBY_SECONDS)


async def keep(leases: Leases) -> None:
    """Check the leases every KEEP_SECONDS, for as long as the process runs; LeaseLost once
    another process holds some of them (taken while this one could not reach the database)."""
    while True:
        await asyncio.sleep(KEEP_SECONDS)
        wanted = leases.held
        try:
            kept = await leases.still_held()
        except StoreBusy as exc:
            log.warning("the leases cannot be checked: %s", exc)
            continue
        lost = sorted(set(wanted) - set(kept))
        if lost:
            raise LeaseLost(
                f"{listed(lost)} were taken over by another bot process while this one could "
                "not reach the database: stopping, so that only that one runs them."
            )
