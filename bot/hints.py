"""Hints: what the crew policy (engine.crew) would do in a player's place, in one private line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import Phase
from engine.crew import decide

if TYPE_CHECKING:
    from bot.service import Table


def hint_line(table: Table, player: int, now: float) -> str:
    """The hint for `player` (seated in the game) at wall time `now`, shown only to them."""
    game = table.game
    assert game is not None
    if game.is_over:
        return "This game is over: there is nothing left to do."
    if game.phase is Phase.RESHUFFLE:
        return "The deck is being reshuffled: wait a moment, then ask again."
    if game.active_player != player:
        return "It is not your turn: ask again when it is."
    time_left = table.time_left(now)
    game_time_left = None if time_left is None else time_left * table.time_scale
    decision = decide(game.view_for(player), game_time_left)
    assert decision is not None
    return f"💡 {decision.text}"
