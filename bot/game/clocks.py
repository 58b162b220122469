"""The games' timers: the countdown and its warnings, the reshuffle delay, and the retries
of a timer's action until it is saved.

Every timer is set on the game's time (bot.game.timer) and owned here; what it does to
its game goes through the service's action path (an `Apply`), under the game's lock, as
one transaction.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from bot.errors import MovedOn, UserError
from bot.game import changes
from bot.game.actions import Apply
from bot.game.timer import RealTimer, Timer
from bot.i18n.catalogs import said, t
from bot.table import Table
from engine import RESHUFFLE_SECONDS, Phase

log = logging.getLogger(__name__)

#: Game-time seconds before the end at which the channel is warned (longest first).
WARNINGS = (300, 60, 10)
#: Seconds between attempts of a timer's action that could not be saved (the last repeats).
TIMER_RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)

#: Something to do to a game, retried until saved (it does nothing once the game moved on).
Work = Callable[[Table], Coroutine[Any, Any, None]]


class Clocks:
    """Arms, fires and stops every game's timers (see the module docstring)."""

    def __init__(
        self,
        stream: changes.Stream,
        apply: Apply,
        *,
        now: Callable[[], float],
        time_scale: float,
        timer: Timer | None = None,
    ) -> None:
        self.stream = stream
        self.apply = apply
        self.now = now
        self.time_scale = time_scale
        #: The game's time, on which every timer here is set.
        self.timer: Timer = timer or RealTimer()
        #: Timers' actions under way (retried until saved), cancelled at shutdown.
        self.tasks: set[asyncio.Task] = set()

    def ran_out(self, table: Table) -> bool:
        return table.deadline is not None and self.now() >= table.deadline

    def arm(self, table: Table, warned: int | None = None) -> None:
        """One timer a game: for its next warning (after `warned`) or the end of its time.

        (Thousands of games, each with a timer per warning, kept the event loop's heap
        and the garbage collector's generations needlessly full.)
        """
        for timer in table.runtime.timers:
            timer.cancel()
        table.runtime.timers.clear()
        if table.deadline is None:
            return
        left = table.deadline - self.now()
        for warning in WARNINGS:
            at = left - warning / self.time_scale
            if at > 0 and (warned is None or warning < warned):
                table.runtime.timers.append(self.timer.call_later(at, self._warn, table, warning))
                return
        table.runtime.timers.append(
            self.timer.call_later(max(left, 0), self._spawn, self._expire, table, "timer.countdown")
        )

    def arm_reshuffle(self, table: Table) -> None:
        delay = RESHUFFLE_SECONDS / self.time_scale
        table.runtime.reshuffle_ends = self.now() + delay
        table.runtime.reshuffle_timer = self.timer.call_later(
            delay, self._spawn, self._reshuffled, table, "timer.reshuffle"
        )

    def stop(self, tables: Iterable[Table]) -> None:
        """Planned shutdown: no timer may fire while the store freezes the clocks."""
        for table in tables:
            for timer in table.runtime.timers:
                timer.cancel()
            if table.runtime.reshuffle_timer is not None:
                table.runtime.reshuffle_timer.cancel()
        for task in self.tasks:
            task.cancel()

    def _spawn(self, fn: Work, table: Table, what: str) -> None:
        task = asyncio.create_task(self.until_saved(fn, table, what))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def until_saved(self, fn: Work, table: Table, what: str) -> None:
        """A timer's action, retried with backoff until it is saved or no longer due.

        (`fn` does nothing once the game has ended or moved on.) The channel is told
        once that the game is held up; a failed commit leaves the game as stored.
        """
        for attempt in itertools.count():
            try:
                await fn(table)
                return
            except MovedOn:  # another process had moved the game on: reported, reloaded
                return
            except UserError as exc:  # refused by the rules: trying again changes nothing
                log.error("game %s: %s was refused: %s", table.id, what, exc)
                return
            except Exception as exc:
                delay = TIMER_RETRY_DELAYS[min(attempt, len(TIMER_RETRY_DELAYS) - 1)]
                log.error(
                    "game %s: %s could not be saved (attempt %d); retrying in %g s",
                    table.id,
                    what,
                    attempt + 1,
                    delay,
                    exc_info=exc if attempt == 0 else None,
                )
            if attempt == 0 and table.open:
                self.stream.publish(
                    changes.Posted(
                        table, t(table.language, "notice.held_up", what=t(table.language, what))
                    )
                )
                self.stream.publish(changes.Settled(table))
            await self.timer.sleep(delay)

    def _warn(self, table: Table, seconds: int) -> None:
        """A warning on the board (its Last actions, and its colour in the last minute)."""
        self.arm(table, warned=seconds)
        if table.open:
            if seconds >= 60:
                line = said(table.language, "notice.minutes_left", count=seconds // 60)
            else:
                line = said(table.language, "notice.seconds_left", count=seconds)
            table.recent.append(line)
            # the game's version is the same: the board would take itself for shown
            self.stream.publish(changes.BoardOutdated(table))
            self.stream.publish(changes.Settled(table))

    async def _expire(self, table: Table) -> None:
        async with table.runtime.lock:
            if table.open and table.status == "active":
                await self.expire_locked(table)

    async def expire_locked(self, table: Table) -> None:
        """The game's time ran out: it ends, lost (its lock is held)."""
        await self.apply(table, {"type": "clock_expired"}, None)
        self.stream.publish(changes.Posted(table, t(table.language, "notice.lost")))
        self.stream.publish(changes.Settled(table))

    async def _reshuffled(self, table: Table) -> None:
        async with table.runtime.lock:
            table.runtime.reshuffle_timer = None
            game = table.game
            if table.open and game is not None and game.phase is Phase.RESHUFFLE:
                await self.apply(table, {"type": "finish_reshuffle"}, None)
                # no interaction answers for it: at once
                self.stream.publish(changes.Settled(table))


def stop_timers(table: Table) -> None:
    """The game's clock, warnings and reshuffle timer stop (none fires any more)."""
    for timer in table.runtime.timers:
        timer.cancel()
    table.runtime.timers.clear()
    if table.runtime.reshuffle_timer is not None:
        table.runtime.reshuffle_timer.cancel()
        table.runtime.reshuffle_timer = None
