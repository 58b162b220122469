"""One reading of a click for both doors: whatever a lobby or a hand panel offers, read as
Discord sends it (an interaction's data) and as the live table sends it (a socket's move),
is the same click, stands for the same command, and its outcome is told in the same words."""

from __future__ import annotations

from typing import Any

import pytest

from bot.errors import UserError
from bot.game.clicks import Click, command_of, read_click
from bot.game.commands import (
    AddCrewmate,
    Command,
    Configure,
    Join,
    Leave,
    Move,
    Open,
    PlayAgain,
    RemoveCrewmate,
    Start,
)
from bot.game.replies import reply
from bot.i18n.catalogs import t
from bot.views import components, panel
from tests.game.conftest import caller

ANN, BOB = 1, 2


def offered(items: list[dict]) -> list[tuple[str, list[str] | None]]:
    """Each (custom id, values) a client can send from these components: an enabled
    button's id, or a select's id with each of its options picked alone."""
    sent: list[tuple[str, list[str] | None]] = []
    for item in items:
        if item.get("disabled"):
            continue
        if item.get("type") == components.SELECT:
            sent += [(item["custom_id"], [o["value"] for o in item["options"]][:1])]
            sent += [(item["custom_id"], [o["value"]]) for o in item["options"][1:]]
        elif "custom_id" in item:
            sent.append((item["custom_id"], None))
    return sent


def flat(rows: list[dict]) -> list[dict]:
    """Every component of Discord's rows (or a Components V2 layout), at any depth."""
    found = []
    for row in rows:
        found.append(row)
        found += flat(row.get("components") or [])
        if row.get("accessory"):
            found.append(row["accessory"])
    return found


def from_discord(custom_id: str, values: list[str] | None) -> Click:
    """The click as an interaction's data carries it (its component type beside)."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return read_click(data)


def from_the_web(custom_id: str, values: list[str] | None) -> Click:
    """The click as a web client's move carries it (bot.web.sockets)."""
    return read_click({"custom_id": custom_id, "values": values})


def assert_read_alike(items: list[dict]) -> list[Command | None]:
    commands: list[Command | None] = []
    for custom_id, values in offered(items):
        discord_click, web_click = from_discord(custom_id, values), from_the_web(custom_id, values)
        assert discord_click == web_click
        commands.append(command_of(discord_click))
        assert command_of(web_click) == commands[-1]
    return commands


async def test_a_lobbys_buttons_and_settings_read_alike_from_either_door(service):
    table = (await service.run(caller(ANN), Open())).table
    items = flat(components.lobby_message(table).json()["components"])
    commands = assert_read_alike(items)
    kinds = {type(c) for c in commands}
    assert {Join, Leave, Start, AddCrewmate, RemoveCrewmate, Configure} <= kinds
    assert None in commands  # How to play shows the rules: no command
    configured = [c for c in commands if isinstance(c, Configure)]
    assert Configure(rules="advanced") in configured
    assert Configure(difficulty="hard") in configured
    assert Configure(minutes=8) in configured


async def test_a_hand_panels_moves_read_alike_from_either_door(service):
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(BOB), Join())
    await service.run(caller(ANN), Start(first=ANN))
    view = table.game.view_for(ANN)
    items = flat([m for m in panel.moves(table, view, "en") if m is not None])
    commands = assert_read_alike(items)
    moves = [c for c in commands if isinstance(c, Move)]
    assert {"type": "draw"} in [m.action for m in moves]
    assert all(m.version == table.version for m in moves)


def test_what_only_one_door_offers_is_read_as_its_command_and_what_shows_is_none():
    assert command_of(from_the_web("apo:b:0:0:open", None)) == Open()
    assert command_of(from_discord("apo:b:7:3:again", None)) == PlayAgain(7)
    assert command_of(from_discord("apo:l:7:3:reroll", None)) == Move({"type": "reroll"}, 3)
    for shown in ("apo:b:7:3:rules", "apo:b:7:3:hand", "apo:b:7:3:table", "apo:r:7:2:next"):
        assert command_of(from_discord(shown, None)) is None
    assert command_of(from_discord("apo:h:7:3:refresh", None)) is None
    with pytest.raises(UserError):
        command_of(from_the_web("apo:p:7:3:discard", ["7H", "7H"]))  # the same card twice


async def test_the_same_command_is_told_in_the_same_words_whichever_door(service):
    table = (await service.run(caller(ANN), Open())).table
    joined = await service.run(
        caller(BOB), command_of(from_the_web(f"apo:b:{table.id}:0:join", None))
    )
    assert reply(joined, BOB, "fr") == t("fr", "reply.join", seated=2)
    changed = await service.run(
        caller(ANN), command_of(from_discord(f"apo:s:{table.id}:0:difficulty", ["hard"]))
    )
    said = reply(changed, ANN, "en")
    assert said == "Settings changed: basic rules, hard, 8 minutes.", said
    left = await service.run(caller(BOB), Leave())
    assert reply(left, BOB, "en") == t("en", "reply.leave")
    started = await service.run(caller(ANN), Start(first=ANN))
    assert reply(started, ANN, "en") == t("en", "reply.started")
    drawn = await service.run(caller(ANN), Move({"type": "draw"}))
    assert reply(drawn, ANN, "en").strip()  # what the draw brought, told to its player


def test_the_discord_panels_builds_select_reads_as_the_build_it_names_and_nothing_else():
    chosen = command_of(from_discord("apo:p:7:3:build", ["red.2"]))
    assert chosen == Move({"type": "build", "colour": "red", "size": 2}, 3)
    assert chosen == command_of(from_discord("apo:h:7:3:build:red.2", None))  # as its button
    for forged in (["purple.2"], ["red.4"], ["red.2", "blue.1"], ["7H"]):
        with pytest.raises(UserError):
            command_of(from_discord("apo:p:7:3:build", forged))
