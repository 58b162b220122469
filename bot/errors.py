"""What the bot refuses to do for a user, and why: `UserError` and its kin, worded per reader."""

from __future__ import annotations

from typing import Any

from bot.i18n.catalogs import refusal, t
from bot.table import Table
from engine import IllegalMove


class UserError(Exception):
    """Something a user asked for that cannot be done; `text(language)` says why, politely.

    It carries a message key and its parameters (an engine refusal: its code), so the
    reason is worded in the language of whoever reads it.
    """

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params
        #: The engine's refusal code, when the engine refused.
        self.code: str | None = None

    @classmethod
    def refused(cls, exc: IllegalMove) -> UserError:
        """The engine's refusal, by its code."""
        error = cls(f"refusal.{exc.code}", **exc.params)
        error.code = exc.code
        return error

    def text(self, language: str) -> str:
        if self.code is not None:
            return refusal(language, self.code, self.params)
        return t(language, self.key, **self.params)


class StaleBoard(UserError):
    """A button from an older board: the state has moved on since it was drawn."""

    def __init__(self, table: Table, key: str = "error.stale_board") -> None:
        super().__init__(key)
        self.table = table

    @classmethod
    def of(cls, table: Table, user_id: int, kind: str) -> StaleBoard:
        """`user_id`'s click of a `kind` of move, aimed at an older board, told as what it
        was: a double click (their last move here was that one: "already done"), a click
        out of turn ("not your turn yet"), else a board the game has moved on from."""
        game = table.game
        if table.runtime.last == (user_id, kind):
            return cls(table, "error.already_done")
        if game is not None and user_id in game.players and game.active_player != user_id:
            return cls(table, "error.not_your_turn_yet")
        return cls(table)


class MovedOn(StaleBoard):
    """Another process wrote the game first: this action was not made."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.key = "error.moved_on"
