"""A hand panel's move played for a person, whichever way it came: a click on their
Discord panel (the Play cog) or on the web table (bot.web): the same checks, the same
service call, the same private note of what happened or why not."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from bot.discord import inputs
from bot.errors import StaleBoard, UserError
from bot.i18n.catalogs import t
from bot.views import hints, narration

if TYPE_CHECKING:
    from bot.discord.inputs import Click
    from bot.game.service import GameService
    from bot.table import Table


def check_player(table: Table, user_id: int) -> None:
    """UserError unless `user_id` holds cards in the table's game."""
    game = table.game
    if game is None:
        raise UserError("error.no_cards_yet")
    if user_id not in game.players:
        raise UserError("error.no_hand")


async def play(service: GameService, table: Table, user: int, click: Click, language: str) -> str:
    """Play `click` (a panel's button or select, already read by inputs.read_click) for
    `user`, seated at `table`; the line their panel shows afterwards. A forged click
    raises UserError; a refused or outdated move is told in the line."""
    if click.version != table.version:
        return t(language, "note.moved_on")
    if click.action == "hint":  # the panel itself shows the hint, until the next change
        return hints.hint_line(table, user, time.time(), language)
    action = inputs.panel_move(click)  # forged input: told apart, privately
    try:
        result = await service.act(table.channel_id, user, action, expected_version=click.version)
    except StaleBoard:
        return t(language, "note.moved_on")
    except UserError as exc:
        return f"⚠️ {exc.text(language)}"
    return narration.private_note(result.events, user, language, table.cards)
