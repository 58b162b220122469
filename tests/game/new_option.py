"""A made-up lobby option, added before anything else of the bot is imported, as if its row
were written in bot.lobby_settings: what it reaches, printed as JSON.

Run as ``python -m tests.game.new_option DB`` (by tests/game/test_new_option.py): a fresh
interpreter, so every module builds what it derives from the table of options at import,
as it would for a real new option. The option is "pace" (steady or brisk), a field of
the settings with a default, kept in a column `pace` this script adds to the database at
DB; its select's words are the one thing written for it outside the table.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from typing import Any

from bot import lobby_settings
from bot.lobby_settings import LobbySettings, Option

PACE = Option(
    "pace",
    ("steady", "brisk"),
    column="pace",
    help="How brisk the game is",
    refusal="settings.unknown_pace",
)


@dataclass(frozen=True, slots=True)
class Paced(LobbySettings):
    """The settings with the made-up option's field."""

    pace: str = "steady"


# The row and the field, and what the module derives from the table at import.
lobby_settings.OPTIONS = (*lobby_settings.OPTIONS, PACE)
lobby_settings.BY_NAME = {option.name: option for option in lobby_settings.OPTIONS}
lobby_settings.COLUMNS = tuple(option.column for option in lobby_settings.OPTIONS)
lobby_settings.LobbySettings = Paced

# Only now the rest of the bot, building from the table as it is.
from bot.errors import UserError  # noqa: E402
from bot.game.audience import Audience  # noqa: E402
from bot.game.changes import Stream  # noqa: E402
from bot.game.clicks import command_of, read_click  # noqa: E402
from bot.game.commands import Configure, End, Join, Open, PlayAgain, Start  # noqa: E402
from bot.game.service import GameService  # noqa: E402
from bot.store.store import Store  # noqa: E402
from bot.store.transactions import Transaction, count, one  # noqa: E402
from bot.table import Table  # noqa: E402
from bot.views import components  # noqa: E402
from bot.views.plain import Names  # noqa: E402
from bot.views.web_state import public  # noqa: E402
from tests.game.conftest import Members, caller  # noqa: E402

ANN, BOB = 1, 2
components.SELECTS["pace"] = components.Select(
    lambda language, pace: pace.title(), lambda language, settings: "Pace"
)


def add_column() -> Transaction[None]:
    yield count("ALTER TABLE games ADD COLUMN pace TEXT NOT NULL DEFAULT 'steady'")


def column(game_id: int) -> Transaction[Any]:
    (value,) = yield one("SELECT pace FROM games WHERE id = ?", game_id)
    return value


def select(table: Table) -> dict[str, Any]:
    """The lobby's select for the option, as its host sees it."""
    (found,) = [s for s in components.lobby_settings(table) if s["custom_id"].endswith(":pace")]
    return found


async def main(database: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    store = await Store.open(database)
    service = GameService(store, Stream(), Audience(store), seed=7, gatekeeper=Members())
    try:
        await store._db.write(add_column)
        table = (await service.run(caller(ANN), Open(pace="brisk", difficulty="hard"))).table
        seen["opened"] = [
            table.settings.pace,
            table.difficulty,
            await store._db.read(column, table.id),
        ]
        picker = select(table)
        seen["select"] = {
            "values": [o["value"] for o in picker["options"]],
            "default": [o["value"] for o in picker["options"] if o["default"]],
        }
        click = read_click({"custom_id": picker["custom_id"], "values": ["steady"]})
        command = command_of(click)
        seen["command"] = command == Configure(pace="steady")
        await service.run(caller(ANN), command)
        back = Table.from_record(await store.get_game(table.id))
        seen["configured"] = [table.settings.pace, await store._db.read(column, table.id)]
        seen["read back"] = back.settings == table.settings and isinstance(back.settings, Paced)
        seen["web"] = public(table, 0.0, "en", markup=Names(table))["settings"]
        try:
            await service.run(caller(ANN), Configure(pace="sprint"))
        except UserError as refusal:
            seen["refused"] = refusal.key
        await service.run(caller(BOB), Join())
        await service.run(caller(ANN), Start(first=ANN))
        await service.run(caller(ANN), End())
        again = (await service.run(caller(BOB), PlayAgain(table.id))).table
        seen["again"] = [again.settings.pace, await store._db.read(column, again.id)]
    finally:
        service.stop_timers()
        await store.close()
    try:  # /apophis new's options are its parameters: the new one is not among them yet
        import bot.discord.cogs.apophis  # noqa: F401
    except TypeError as error:
        seen["slash"] = str(error)
    return seen


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))))
