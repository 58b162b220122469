"""What every action on a game shares: the game's lock, waited for briefly, and the result.

Each game has its own lock (`Table.runtime.lock`): games never wait on each other. A player's
action waits for it at most LOCK_WAIT seconds, then is refused as busy.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.table import Table
from engine import events as ev

#: The longest a player's action waits for its game's lock: with the store's own 1 s
#: limit, every interaction is answered well inside Discord's 3 seconds, busy or not.
LOCK_WAIT = 1.0


@dataclass(frozen=True, slots=True)
class ActionResult:
    """An accepted action: what it caused and the public lines that tell it."""

    table: Table
    events: list[ev.GameEvent]
    lines: list[str]
    #: Who hosts now, when the action made someone else host.
    new_host: int | None = None


#: A person's action on a channel's game, through its lock (GameService.act).
Act = Callable[..., Awaitable[ActionResult]]
#: An action applied, committed and announced, its game's lock already held (the actor,
#: None for the bot itself, third): GameService.apply_locked.
Apply = Callable[[Table, dict[str, Any], int | None], Awaitable[ActionResult]]


@contextlib.asynccontextmanager
async def held(table: Table) -> AsyncIterator[None]:
    """The game's lock for a player's action, waited for at most LOCK_WAIT seconds: past
    that the player is told the bot is busy, and nothing is done."""
    lock = table.runtime.lock
    if lock.locked():  # (a free lock is taken at once: no timer to arm and cancel)
        try:
            async with asyncio.timeout(LOCK_WAIT):
                await lock.acquire()
        except TimeoutError:
            raise UserError("error.busy") from None
    else:
        await lock.acquire()
    try:
        yield
    finally:
        lock.release()
