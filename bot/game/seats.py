"""Seats changing hands mid-game: a member drops in, a leaver's seat goes to a crewmate.

A member who is not seated takes a crewmate's seat (the first in seat order), or a seat
someone left, with the board's Join or `/apophis join`; a player leaving mid-game may hand
their seat to a new crewmate rather than discard their hand. Each is the engine's
`take_seat` action, decided under the game's lock from the table as it is then (two
members pressing Join at once never take one seat twice), and goes through the service's
action path like any move: one transaction with the game's version, in which the store
records who sat down and whose seat they took (bot.store.actions). The hand stays with its
seat: nothing is dealt and nothing is discarded. Who was removed from the game by its
host or a moderator cannot come back into it this way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.errors import UserError
from bot.game.actions import Act, ActionResult
from bot.game.tables import Tables
from bot.store.store import Store
from bot.table import EMPTY_SEAT, Table, is_crewmate, next_crewmate, seat_to_take

#: An action decided under the game's lock from the table as it is then (GameService.act).
Decided = Callable[[Table], dict[str, Any]]


class Seats:
    """Drop-ins and seats handed to crewmates, for every game (see the module docstring)."""

    def __init__(self, tables: Tables, store: Store, *, act: Act) -> None:
        self.tables = tables
        self.store = store
        self.act = act

    async def drop_in(self, channel_id: int, user_id: int, name: str | None) -> ActionResult:
        """`user_id` takes a free seat of the channel's game in play, with its hand."""
        table = self.tables.table_in(channel_id)
        if user_id in table.started_game.players:
            raise UserError("error.already_seated")
        if user_id in await self.store.removed_from(table.id):
            raise UserError("seat.removed")
        return await self.act(channel_id, user_id, _drop_in, name=name)

    async def hand_over(self, channel_id: int, user_id: int) -> ActionResult:
        """`user_id` leaves the channel's game in play; a new crewmate plays their seat on,
        with their hand (refused to the last person at the table: the game would end)."""

        def decided(table: Table) -> dict[str, Any]:
            players = table.started_game.players
            if user_id not in players:
                raise UserError("error.not_seated")
            if all(is_crewmate(p) or p == user_id for p in players):
                raise UserError("seat.last_person")
            crewmate = next_crewmate(players)
            return {"type": "take_seat", "player": crewmate, "seat_of": user_id}

        return await self.act(channel_id, user_id, decided, as_player=False)


def _drop_in(table: Table) -> dict[str, Any]:
    """The seat a member drops into, as the game is now; UserError when none is free."""
    seat = seat_to_take(table.started_game)
    if seat is None:
        raise UserError("seat.none")
    return {"type": "take_seat"} if seat == EMPTY_SEAT else {"type": "take_seat", "seat_of": seat}
