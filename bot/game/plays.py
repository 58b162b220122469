"""A hand panel's move played for a person, whichever door it came through: a click on their
Discord panel or on the live table: the same checks, the same command, the same private
note of what happened or why not (shown in the panel itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import StaleBoard, UserError
from bot.game.access import may_play
from bot.game.clicks import command_of
from bot.game.handed import Outdated
from bot.i18n.catalogs import t
from bot.i18n.said import joined
from bot.views import hints

if TYPE_CHECKING:
    from bot.game.access import Caller
    from bot.game.clicks import Click
    from bot.game.service import GameService
    from bot.table import Table


def check_player(table: Table, user_id: int) -> None:
    """UserError unless `user_id` holds cards in the table's game."""
    game = table.game
    if game is None:
        raise UserError("error.no_cards_yet")
    if user_id not in game.players:
        raise UserError("error.no_hand")


async def play(
    service: GameService, caller: Caller, table: Table, click: Click, language: str
) -> str:
    """Play `click` (a panel's button or select, read by bot.game.clicks) for the caller,
    seated at `table`; the line their panel shows afterwards. A forged click, or a caller
    who may not play here, raises UserError; a refused or outdated move is told in the line."""
    may_play(caller.standing)  # who may not play here is told so first
    check_player(table, caller.user_id)
    if click.version != table.version and click.action != "say":  # a signal is no move
        return t(language, "note.moved_on")
    if click.action == "hint":  # the panel itself shows the hint, until the next change
        return hints.hint_line(table, caller.user_id, table.runtime.now(), language)
    move = command_of(click)  # forged input: told apart, privately
    if move is None:  # a refresh: no move, nothing to tell
        raise UserError("error.unknown_button")
    try:
        return await service.answer(caller, move, language)
    except (StaleBoard, Outdated):
        return t(language, "note.moved_on")
    except UserError as exc:
        return joined("", ["⚠️ ", exc.text(language)])
