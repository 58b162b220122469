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

    def __init__(self, table: Table) -> None:
        super().__init__("error.stale_board")
        self.table = table


class MovedOn(StaleBoard):
    """Another process wrote the game first: this action was not made."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.key = "error.moved_on"
