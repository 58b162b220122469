"""IDENTIFY in turns across processes: one IDENTIFY every 5 seconds for the whole bot.

Discord accepts one IDENTIFY per 5 seconds from a bot (max_concurrency 1), whichever
process sends it. Processes sharing a PostgreSQL database take turns through an advisory
lock; in its turn a process waits until 5 seconds after the last IDENTIFY of any process
(a time kept in the database, so that a process killed in its turn cannot make the next
one too early), notes the time, and identifies. Its turn ends with the READY that answers
(noted too: Discord counts from when it received the IDENTIFY, surely before). Alone on
SQLite there is nobody to take turns with: the client waits discord.py's own way.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store.database import Turn
    from bot.store.store import Store

#: How long after an IDENTIFY the next may come, whichever process sends it.
IDENTIFY_SECONDS = 5.0
#: How long a turn to IDENTIFY lasts at most when no READY answers it.
IDENTIFY_TURN_SECONDS = 10.0
#: The meta key of when the bot last identified (or was answered), whichever process.
LAST_IDENTIFY = "last_identify"
#: The advisory lock that takes IDENTIFYs in turn across processes on PostgreSQL (one
#: bucket: shard_id % max_concurrency, and max_concurrency is 1 below 150,000 servers).
IDENTIFY_LOCK = 0x41504F02


class IdentifyTurns:
    """This process's turns to IDENTIFY, shard by shard, kept in `store` (module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: shard id -> its turn to IDENTIFY, while READY has not answered it.
        self._turns: dict[int | None, Turn] = {}

    async def take(self, shard_id: int | None) -> bool:
        """Wait for a shard's turn, then until 5 seconds after the bot's last IDENTIFY, and
        note the time: the shard may identify now. False when no other process can share
        the database (nobody to take turns with): the caller waits its own way."""
        turn = await self.store.take_turn(IDENTIFY_LOCK)
        if turn is None:
            return False
        turn.end_in(IDENTIFY_TURN_SECONDS)
        self._turns[shard_id] = turn
        last = await self.store.get_meta(LAST_IDENTIFY) or 0.0
        await asyncio.sleep(max(last + IDENTIFY_SECONDS - time.time(), 0.0))
        await self.store.set_meta(LAST_IDENTIFY, time.time())
        return True

    async def answered(self, shard_id: int) -> None:
        """READY answered a shard's IDENTIFY: the next may come 5 seconds from now."""
        turn = self._turns.pop(shard_id, None)
        if turn is not None:
            await self.store.set_meta(LAST_IDENTIFY, time.time())
            turn.end_in(0)
