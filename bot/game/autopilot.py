"""The autopilot: a crewmate plays the seat of a person gone quiet, until they are back.

It is on, after DEFAULT_AUTOPILOT_SECONDS (90), for a server that never chose, and where
there is no server (a DM, a group DM: nobody can choose there, and a seat whose player
left, a participant who left the Activity say, would hold the others up until the host
skipped it). A server may change the delay or turn it off (`/apophis config autopilot`:
30 to 300 seconds, 0 for off), and its choice holds for every game in it, however it was
opened (a user install in a server without the bot too: there the setting stays as the
server last left it). A server whose settings were stored while it was off by default
keeps it off.
When the person a game waits for (for their turn, a discard or a reroll decision) has
not clicked or typed anything in the game for that long, counted from the later of the
moment the game began waiting for them and their last click or command there, their
seat goes on autopilot: the board says so, and the crewmates' driver (bot.game.crewmates)
plays it by the crew policy standing in for them, move after move (carrying on their
plan: the rocket they were building, the launch sequence they started), until their next
click or command in the game gives it back at once. Its moves go through the service
like any player's, under the game's lock and aimed at the version they were decided on:
one that finds the seat given back, or the game moved on, is dropped unseen (a click
that lands first wins).
Counting is in game seconds (scaled by APOPHIS_TIME_SCALE) and kept in memory: after a
restart every seat is its player's again, and counting starts from the restart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.errors import UserError
from bot.game import changes
from bot.game.timer import RealTimer, Timer
from bot.i18n.catalogs import said
from bot.store.records import AUTOPILOT_SECONDS, DEFAULT_AUTOPILOT_SECONDS
from bot.table import Table, is_crewmate
from bot.views.render import mention
from engine import Phase

#: Moves the autopilot makes while every person at the table is on autopilot (a few
#: rounds); if nobody is back by then, the game ends as abandoned: nobody is playing it.
UNATTENDED_MOVES = 24
#: The reason such a game's end is logged with.
UNATTENDED = "unattended"


def unattended(table: Table) -> bool:
    """Whether every person at the table is on autopilot (crewmates aside)."""
    game = table.game
    people = [p for p in game.players if not is_crewmate(p)] if game is not None else []
    return bool(people) and all(p in table.autopilot for p in people)


def checked_delay(seconds: int) -> int:
    """A server's autopilot delay as chosen (0: off); UserError unless 0 or in range."""
    low, high = AUTOPILOT_SECONDS
    if seconds and not low <= seconds <= high:
        raise UserError("autopilot.range", low=low, high=high, seconds=seconds)
    return seconds


class Autopilot:
    """Takes over the seats of people gone quiet (see the module docstring).

    A seat taken over or given back redraws the board (its version is the same), which
    wakes the crew (bot.game.crewmates), who play the seats on autopilot.
    """

    def __init__(
        self,
        stream: changes.Stream,
        time_scale: float,
        clock: Callable[[], float],
        timer: Timer | None = None,
    ) -> None:
        self.stream = stream
        self.time_scale = time_scale
        self.now = clock
        self.timer: Timer = timer or RealTimer()
        #: Server id -> its delay in seconds (0: off), for the servers that chose one.
        self.delays: dict[int, int] = {}
        #: Game id -> the person it waits for and since when (the clock's time); the timer
        #: that takes their seat over once they have been quiet long enough.
        self.waiting: dict[int, tuple[int, float]] = {}
        self.timers: dict[int, asyncio.TimerHandle] = {}

    def configure(self, guild_id: int, seconds: int, tables: list[Table]) -> None:
        """A server chose its delay (0: off); its open games follow it from now on (off
        gives every seat on autopilot back to its player)."""
        self.delays[guild_id] = seconds
        for table in tables:
            if table.guild_id != guild_id:
                continue
            if not seconds and table.autopilot:
                table.autopilot.clear()
                self.stream.publish(changes.BoardOutdated(table))
                self.stream.publish(changes.Settled(table))
            else:
                self.watch(table)

    def awaited(self, table: Table) -> int | None:
        """The person the game waits for, if the autopilot may take their seat over."""
        game = table.game
        if table.status != "active" or game is None or game.is_over:
            return None
        player = game.active_player
        if (
            game.phase is Phase.RESHUFFLE
            or player is None
            or is_crewmate(player)
            or player in table.autopilot
            or self.delay(table) is None
        ):
            return None
        return player

    def delay(self, table: Table) -> int | None:
        """Seconds of quiet before the table's awaited seat goes on autopilot (None: off):
        its server's choice, else DEFAULT_AUTOPILOT_SECONDS (a DM or a group DM too)."""
        seconds = self.delays.get(table.guild_id, DEFAULT_AUTOPILOT_SECONDS)
        return seconds or None

    def heard(self, change: changes.TableChange) -> None:
        """A table changed (the service's stream): count toward the seat it waits for."""
        if isinstance(change, changes.BoardChanged | changes.BoardOutdated):
            self.watch(change.table)

    def watch(self, table: Table) -> None:
        """The game changed: count toward taking over the seat it waits for (from now, if
        it waits for someone else than before), or stop counting."""
        player = self.awaited(table)
        if player is None:
            self._stop(table.id)
            return
        waited = self.waiting.get(table.id)
        if waited is None or waited[0] != player:
            self.waiting[table.id] = (player, self.now())
        self._arm(table)

    def seen(self, table: Table, player: int) -> None:
        """A person clicked or typed something in the game: counting starts again from now,
        and their seat, if on autopilot, is theirs again at once."""
        if table.game is None or player not in table.game.players:
            return
        table.runtime.seen[player] = self.now()
        table.runtime.unattended = 0  # someone is here
        if player in table.autopilot:
            table.autopilot.discard(player)
            table.recent.append(said(table.language, "autopilot.back", player=mention(player)))
            self.stream.publish(changes.BoardOutdated(table))
        elif table.id in self.timers:
            self._arm(table)

    def stop(self) -> None:
        """Shutdown: nothing is taken over any more (counting starts again at the restart)."""
        for game_id in list(self.timers):
            self._stop(game_id)

    def _due(self, table: Table) -> float:
        """When (the clock's time) the seat the game waits for goes on autopilot."""
        player, since = self.waiting[table.id]
        quiet = max(since, table.runtime.seen.get(player, since))
        return quiet + (self.delay(table) or 0) / self.time_scale

    def _arm(self, table: Table) -> None:
        timer = self.timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        left = max(self._due(table) - self.now(), 0.0)
        self.timers[table.id] = self.timer.call_later(left, self.check, table)

    def check(self, table: Table) -> None:
        """The timer's check: the seat the game waits for goes on autopilot if its player
        has been quiet long enough by the clock; else counting goes on."""
        self.timers.pop(table.id, None)
        player = self.awaited(table)
        if player is None or self.waiting.get(table.id, (None,))[0] != player:
            self.watch(table)
            return
        if self.now() < self._due(table):  # they clicked meanwhile, or the clock says so
            self._arm(table)
            return
        self._stop(table.id)
        table.autopilot.add(player)
        seconds = self.delay(table)
        line = said(table.language, "autopilot.took_over", player=mention(player), seconds=seconds)
        table.recent.append(line)
        self.stream.publish(changes.BoardOutdated(table))
        self.stream.publish(changes.Settled(table))  # no interaction answers for it: at once

    def _stop(self, game_id: int) -> None:
        timer = self.timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()
        self.waiting.pop(game_id, None)
