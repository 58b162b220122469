"""Table talk in play: a player's signal checked against their own hand, limited, kept and shown.

A signal (engine.signals) is no move: it takes no turn and leaves the game as it was,
so it goes neither into the game's state nor into its action log (replays and the
engine never see it). Under the game's lock, so that it is checked against the hand as
it is, it is kept in one statement (the player's latest, in place of the one before:
bot.store.talk), and the board and the live table show it to the team
(`BoardOutdated`). At start-up the signals of the games in play come back with them.

A person may give `RATE` signals within `WINDOW` seconds; past that they are told
politely how long to wait, and nothing is said. A crewmate's signals (bot.game.crewmates)
are its plan's, said only when the plan changes.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping

from bot.errors import UserError
from bot.game import changes
from bot.game.actions import held
from bot.store.store import Store
from bot.table import Table, is_crewmate
from engine.signals import Said, Signal, refusal, say

#: A person's signals within `WINDOW` seconds, at most.
RATE = 3
WINDOW = 30.0


class Talk:
    """Every table's talk (see the module docstring)."""

    def __init__(self, store: Store, stream: changes.Stream, now: Callable[[], float]) -> None:
        self.store = store
        self.stream = stream
        self.now = now

    async def say(self, table: Table, player: int, signal: Signal) -> Said:
        """`player` gives `signal` to their team; UserError: refused, and nothing said."""
        async with held(table):
            game = table.game
            if table.status == "lobby" or game is None:
                raise UserError("error.not_started")
            if not table.open:
                raise UserError("error.over")
            if player not in game.players:
                raise UserError("error.no_hand")
            view = game.view_for(player)
            why = refusal(view, signal)
            if why is not None:
                raise UserError(f"talk.refused.{why}")
            now = self.now()
            recent = table.runtime.talked.setdefault(player, deque(maxlen=RATE))
            if not is_crewmate(player) and len(recent) == RATE and now - recent[0] < WINDOW:
                raise UserError("talk.too_many", seconds=math.ceil(WINDOW - (now - recent[0])))
            said = say(view, signal)
            await self.store.set_signal(table.id, player, signal.code, said.until, now)
            recent.append(now)
            table.said[player] = said
        self.stream.publish(changes.BoardOutdated(table))
        return said

    async def recover(self, tables: Mapping[int, Table]) -> None:
        """Start-up: the latest signals of the games in play, back at their tables."""
        for game_id, player, code, until in await self.store.open_signals():
            table = tables.get(game_id)
            if table is not None:
                table.said[player] = Said(player, Signal.read(code), until)
