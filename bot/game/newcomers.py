"""A first game that can be won: the difficulty a new team's lobby offers, and why, and who
plays their first game.

A lobby opened on a server where no team has won yet, or by a host who has never won a
game, is offered `FIRST_GAMES` (bot.views.balance says why) with a one-line reason in it,
unless its host asked for a difficulty or a countdown; the host may change it as any
other. It is judged as the lobby opens, from the server and its host. People seated who
have never finished a game are its newcomers: their panel suggests a first move, and the
picture of a rocket that can launch is shown to each of them once (bot.views.hints,
bot.pictures.first_rocket). Both are kept while the bot runs: a restarted bot shows the
lobby's difficulty without its reason, and suggests no first move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.store.newcomers import Newness
from bot.table import Table
from bot.views import first_games
from bot.views.balance import FIRST_GAMES

#: The reasons a lobby offers FIRST_GAMES (catalog keys): the server's first games, or a
#: host who has never won.
SERVER_FIRST, HOST_FIRST = "first.server", "first.host"


def offer(newness: Newness, asked: Mapping[str, Any]) -> str | None:
    """Why a lobby opened with `asked` (by option name) by a host as new as `newness` is
    offered FIRST_GAMES, or None (it asked for a difficulty or a countdown, or a team has
    won on the server and its host has won a game)."""
    if "difficulty" in asked or "minutes" in asked:
        return None
    if newness.server_won is False:
        return SERVER_FIRST
    return None if newness.winners else HOST_FIRST


def asked_with(asked: Mapping[str, Any], reason: str | None) -> dict[str, Any]:
    """What a lobby is opened with: `asked`, and FIRST_GAMES where it is offered."""
    return {**asked, "difficulty": FIRST_GAMES} if reason else dict(asked)


def chosen(table: Table, asked: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """What the host chose again (`asked`, by option name), and why the lobby still offers
    its difficulty: a difficulty or countdown chosen ends the offer; rules chosen alone keep
    the difficulty offered (rather than advanced rules' medium)."""
    if table.offer is None or "difficulty" in asked or "minutes" in asked:
        return dict(asked), None
    return {"difficulty": table.difficulty, **asked}, table.offer


def seated(table: Table, newness: Newness, people: list[int]) -> None:
    """Those of `people` just seated who have never finished a game are newcomers."""
    table.newcomers.update(p for p in people if p not in newness.played)


def to_welcome(table: Table, person: int) -> bool:
    """Whether `person`, seated in the lobby, is a newcomer not yet shown the picture of a
    rocket that can launch (it counts as shown from now on)."""
    if not first_games.owed(table, person):
        return False
    table.welcomed.add(person)
    return True
