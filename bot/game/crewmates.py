"""AI crewmates at the table: each takes its turn after a human-like pause, played by engine.crew.

A crewmate's seat holds a negative id (-1, -2, -3), which no Discord user has. The
driver listens to the service's change stream (bot.game.changes): whenever a game
changes (every change redraws its board), if a crewmate must act next, its move is
scheduled 1 to 3 seconds later (scaled by APOPHIS_TIME_SCALE). The move is decided
then, from the crewmate's view and the time left, and goes through the service like
any player's, so it is told like one; a move its teammates might not expect (every
scrap, a risky launch) goes with the decision's notice, which the board tells in its
place ("♻️ 🤖 Robot 1 scrapped the rocket: it cannot pass the fuel check, …").
The seat of a person gone quiet is played the same way while it is on autopilot
(bot.game.autopilot, which listens to the same stream), by the crew policy standing in
for its player (`decide(absent=True)`): it carries on their plan, the rocket they were
building and the launch sequence they started, rather than one of its own; such a move
is aimed at the game's version it was decided on, and dropped if the game or the seat
moved on. The crew is told which seats are crewmates (as the lobby and the board show
them), so that it reads only the people's way of playing; a seat on autopilot is still
its person's.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.errors import UserError
from bot.game import changes
from bot.game.autopilot import Autopilot
from bot.game.timer import RealTimer, Timer
from bot.table import Notice, Table, is_crewmate
from engine import Phase
from engine.crew import Decision, decide, says
from engine.signals import Said, Signal, standing

log = logging.getLogger(__name__)

#: The shortest and longest pause before a crewmate's move, in game seconds.
PAUSE = (1.0, 3.0)

#: Applies a crewmate's action, with its notice, to its game at the version it was decided
#: on; False when it was refused (the game moved on).
Act = Callable[[Table, int, dict[str, Any], Notice | None, int], Awaitable[bool]]
#: A seat's signal to its team (bot.game.talk.Talk.say).
Say = Callable[[Table, int, Signal], Awaitable[Said]]


class CrewDriver:
    """Plays the crewmates of every game (see the module docstring)."""

    def __init__(
        self,
        stream: changes.Stream,
        act: Act,
        time_scale: float = 1.0,
        clock: Callable[[], float] = time.time,
        timer: Timer | None = None,
        *,
        say: Say,
    ) -> None:
        self.act = act
        self.say = say
        self.time_scale = time_scale
        self.now = clock
        #: The game's time, on which the crewmates' pauses and the autopilot count.
        self.timer: Timer = timer or RealTimer()
        self.pending: dict[int, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task] = set()
        self.random = random.Random()
        self.autopilot = Autopilot(stream, time_scale, clock, self.timer)
        stream.subscribe(self.autopilot.heard)  # the seats it takes over, before the crew
        stream.subscribe(self.heard)

    def heard(self, change: changes.TableChange) -> None:
        """A table changed (the service's stream): a crewmate (or the autopilot) may be due."""
        if isinstance(change, changes.BoardChanged | changes.BoardOutdated):
            self.wake(change.table)

    # -------------------------------------------------------------- playing

    def crewmate_to_move(self, table: Table) -> int | None:
        """The crewmate who must act in this game now, if any (or a person's seat that the
        autopilot plays)."""
        game = table.game
        if table.status != "active" or game is None or game.is_over:
            return None
        if game.phase is Phase.RESHUFFLE:
            return None
        player = game.active_player
        played = player is not None and (is_crewmate(player) or player in table.autopilot)
        return player if played else None

    def wake(self, table: Table) -> None:
        """Schedule the next crewmate move of this game if one is due and none is."""
        if table.id in self.pending or self.crewmate_to_move(table) is None:
            return
        pause = self.random.uniform(*PAUSE) / self.time_scale
        self.pending[table.id] = self.timer.call_later(pause, self._start_move, table)

    def _start_move(self, table: Table) -> None:
        task = asyncio.ensure_future(self._move(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _move(self, table: Table) -> None:
        self.pending.pop(table.id, None)
        player = self.crewmate_to_move(table)
        if player is None:
            return
        game = table.game
        assert game is not None
        time_left = table.time_left(self.now())
        game_time_left = None if time_left is None else time_left * self.time_scale
        # a person's seat is on autopilot: their plan is carried on, not the crew's own
        absent = not is_crewmate(player)
        # the seats crewmates play are public: the crew does not read them as people
        crewmates = frozenset(filter(is_crewmate, game.players))
        view = game.view_for(player)
        decision = decide(
            view, game_time_left, absent=absent, crewmates=crewmates, said=table.said.values()
        )
        if decision is None:
            return
        action = {k: v for k, v in decision.action.items() if k != "player"}
        log.debug("crewmate %s in game %s: %s", player, table.id, decision.reason)
        if not await self.act(table, player, action, notice_of(decision), table.version):
            self.wake(table)  # the game moved on meanwhile: decide again from where it is
        elif not absent:  # a crewmate says its plan (an autopilot never speaks for a person)
            await self._tell(table, player, says(decision))

    async def _tell(self, table: Table, player: int, signal: Signal | None) -> None:
        """A crewmate's signal to its team, unless it is the one it gave that still stands."""
        game = table.game
        if signal is None or game is None:
            return
        before = standing(table.said.values(), game.public_view()).get(player)
        if before is not None and before.signal == signal:
            return
        try:
            await self.say(table, player, signal)
        except UserError as exc:  # the game ended meanwhile: nothing to say
            log.debug("crewmate %s in game %s said nothing: %s", player, table.id, exc.key)

    def stop(self) -> None:
        """Shutdown: no crewmate moves any more (they resume with the game after a restart)."""
        for timer in self.pending.values():
            timer.cancel()
        self.pending.clear()
        for task in self.tasks:
            task.cancel()
        self.autopilot.stop()


def notice_of(decision: Decision) -> Notice | None:
    """What a crewmate tells the table of its decision (None: nothing to tell)."""
    if decision.notice is None:
        return None
    plan = decision.plan.pieces if decision.plan is not None else ()
    return Notice(decision.notice, dict(decision.notice_params), plan)
