"""What a command's caller is told of what it did, worded once for every door.

A door that shows the change itself (Discord redraws a clicked lobby, posts a new one)
may say no more; where a door answers in words (a slash command's private answer, the
live table's reply to a move, a hand panel's note), the words are these.
"""

from __future__ import annotations

from bot.game.actions import ActionResult
from bot.game.commands import (
    AddCrewmate,
    Configure,
    Join,
    Leave,
    Move,
    Open,
    Outcome,
    PlayAgain,
    RemoveCrewmate,
    Say,
    Start,
)
from bot.i18n.catalogs import t
from bot.i18n.said import joined
from bot.table import Table
from bot.views import narration, render, talk
from engine import events as ev

#: The lobby's seat changes, by the reply each has ("{seated}" players now).
SEATED = {Join: "reply.join", Leave: "reply.leave", AddCrewmate: "reply.crewadd"} | {
    RemoveCrewmate: "reply.crewdrop"
}


def reply(outcome: Outcome, user_id: int, language: str) -> str:
    """What `user_id`, who ran the command (a move, a lobby's or a setting's), is told of
    `outcome`, in `language`. Moderation is told to the channel, by the door."""
    command, table, result = outcome.command, outcome.table, outcome.result
    if isinstance(command, Move) or (isinstance(command, Join) and result is not None):
        assert result is not None  # a move, or a seat taken mid-game (bot.game.seats)
        return narration.private_note(result.events, user_id, language, table.cards)
    if isinstance(command, Leave) and result is not None:  # left a game in progress
        return left_game(result, language)
    if isinstance(command, Say):
        words = talk.signal_text(command.signal, language, table.cards)
        return t(language, "talk.said", signal=words)
    if isinstance(command, Start):
        return t(language, "reply.started")
    if isinstance(command, Configure):
        return settings_note(table, language)
    if isinstance(command, Open):
        return t(language, "web.opened")
    if isinstance(command, PlayAgain):
        return t(language, "web.again")
    return t(language, SEATED[type(command)], seated=len(table.seats))


def left_game(result: ActionResult, language: str) -> str:
    """What a player who left a game in progress is told, privately, in their language."""
    told = [
        line
        for event in result.events
        if not isinstance(event, ev.PlayerRemoved | ev.SeatTaken)
        and (line := narration.narrate_event(event, language))
    ]
    crewed = [e.player for e in result.events if isinstance(e, ev.SeatTaken)]
    said = t(language, "reply.left_game")
    if crewed:  # a crewmate plays on with their cards
        said = t(language, "reply.left_crewed", player=render.mention(crewed[0]))
    if result.new_host is not None:
        told.append(t(language, "notice.new_host", player=render.mention(result.new_host)))
    return joined("\n", [said, *told])


def settings_note(table: Table, language: str) -> str:
    """What a lobby's settings are now, in `language`: told to the host who changed them."""
    return t(
        language,
        "web.settings",
        rules=t(language, f"rules.{table.rules}"),
        difficulty=t(language, f"difficulty.{table.difficulty}").lower(),
        length=t(language, "settings.minutes", count=round(table.length_seconds / 60)),
    )
