"""A lobby's settings on Discord: its host picks the rules, difficulty and countdown in the
lobby message's selects, and the message shows them; anyone else is refused privately."""

from __future__ import annotations

import asyncio
import copy
import json
import re

import pytest

from bot.discord.cogs.apophis import Apophis
from bot.lobby_settings import OPTIONS as LOBBY_OPTIONS
from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import components
from tests.bot.helpers import Scene, text_of

#: Discord's most action rows a message may have, and options a select may offer.
ROWS, OPTIONS = 5, 25
EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


def host_select(message) -> dict:
    """The lobby message's one select of its host's settings (every option's choices)."""
    return next(
        item
        for item in message.iter_components()
        if item["type"] == 3 and item["custom_id"].endswith(":host")
    )


def chosen(message, name: str) -> list[str]:
    """The lobby's choice for setting `name`, as its select marks it."""
    options = host_select(message)["options"]
    return [
        o["value"].partition("=")[2]
        for o in options
        if o["value"].startswith(f"{name}=") and o.get("description") == "chosen now"
    ]


async def pick(scene: Scene, message, name: str, value: str, user: str):
    """`user` chooses `value` for setting `name` in the lobby's select; the answer."""
    custom_id = host_select(message)["custom_id"]
    values = [f"{name}={value}"]
    interaction = await scene.fake.select(message, custom_id, values, user=scene[user])
    return await interaction.wait_response()


@pytest.mark.e2e
@pytest.mark.scene(names=("ann", "bob"))
async def test_the_host_picks_hard_then_advanced_and_a_player_is_refused(scene):
    lobby = (await scene.cmd("apophis new", "ann")).message
    await scene.cmd("apophis join", "bob")
    table = scene.live()
    assert host_select(lobby)["custom_id"] == f"apo:s:{table.id}:0:host"
    assert len(host_select(lobby)["options"]) <= OPTIONS
    assert len(lobby.components) <= ROWS
    assert (chosen(lobby, "rules"), chosen(lobby, "difficulty")) == (["basic"], ["medium"])
    assert chosen(lobby, "minutes") == ["10"]

    reply = await pick(scene, lobby, "difficulty", "hard", "ann")
    assert reply.response_type == 7  # the lobby redrawn in the answer
    assert (table.rules, table.difficulty, table.length_seconds) == ("basic", "hard", 480)
    # (Bob's join redrew the lobby through its token: that edit may reach Discord after
    # the answer, and is then followed by the lobby drawn again.)
    await scene.bot.outbox.drain()
    assert (chosen(lobby, "difficulty"), chosen(lobby, "minutes")) == (["hard"], ["8"])
    assert "Hard: 8:00" in text_of(lobby)

    reply = await pick(scene, lobby, "rules", "advanced", "ann")
    assert reply.response_type == 7
    # Advanced rules chosen alone get the ten minutes they are meant for, as when opening.
    assert (table.rules, table.difficulty, table.length_seconds) == ("advanced", "medium", 600)
    assert chosen(lobby, "rules") == ["advanced"] and chosen(lobby, "minutes") == ["10"]
    assert "advanced" in text_of(lobby) and "Medium: 10:00" in text_of(lobby)

    before = text_of(lobby), copy.deepcopy(lobby.components)
    refused = await pick(scene, lobby, "minutes", "15", "bob")
    assert refused.ephemeral and "Only the host" in text_of(refused.message)
    assert (table.difficulty, table.length_seconds) == ("medium", 600)
    await scene.bot.outbox.drain()
    assert (text_of(lobby), lobby.components) == before

    stored = await scene.bot.store.get_game(table.id)
    assert (stored.rules, stored.difficulty, stored.length_seconds) == ("advanced", "medium", 600)
    start = await scene.cmd("apophis start", "ann", first=scene["ann"])
    assert "game has started" in text_of(start.message)
    assert table.game.rules.value == "advanced"
    await scene.bot.outbox.drain()
    board = scene.board(table)
    assert not [item for item in board.iter_components() if item["type"] == 3]


def lobby(language: str, difficulty: str, minutes: int) -> Table:
    return Table(
        id=4,
        guild_id=1,
        channel_id=2,
        host_id=3,
        settings=LobbySettings("basic", difficulty, minutes),
        status="lobby",
        seats=[3],
        language=language,
    )


def test_the_selects_speak_the_lobbys_language_and_say_a_custom_choice():
    rules, difficulty, minutes = components.lobby_settings(lobby("fr", "hard", 8))
    assert rules["options"][0]["label"] == "de base"
    assert [o["label"] for o in difficulty["options"] if o["default"]] == ["difficile (8 min)"]
    assert [o["label"] for o in minutes["options"] if o["default"]] == ["8 minutes"]
    assert all(len(select["options"]) <= OPTIONS for select in (rules, difficulty, minutes))

    # A countdown /apophis new took outside the selects' range: no option is it, and the
    # placeholders say what the lobby has.
    _, difficulty, minutes = components.lobby_settings(lobby("en", "custom", 30))
    assert not any(o["default"] for o in difficulty["options"] + minutes["options"])
    assert difficulty["placeholder"] == "Difficulty: Custom"
    assert minutes["placeholder"] == "Countdown: 30 minutes"


def drawn(version) -> str:
    """A drawing of the lobby (a message's version) as one text."""
    return json.dumps([version.content, version.embeds, version.components], ensure_ascii=False)


def seated(version) -> int:
    """How many seats a drawing of the lobby shows taken ("Players (2/4)")."""
    (count,) = re.findall(r"Players \((\d)/4\)", drawn(version))
    return int(count)


def drawings(message) -> list:
    """Every state the message has shown, oldest first."""
    return [*message.history, message.snapshot()]


@pytest.mark.e2e
@pytest.mark.scene(names=("ann", "bob"))
async def test_a_lobby_click_answered_while_an_edit_is_on_its_way_waits_for_it(scene):
    """Bob's join redraws the lobby through its token; that edit is slow to reach Discord,
    and Ann picks hard meanwhile: her answer does not draw the lobby ahead of it (it would
    land first, then the older edit over it); the lobby is drawn with both after it."""
    lobby = (await scene.cmd("apophis new", "ann")).message
    stall = scene.fake.stall_next(EDIT_ORIGINAL)
    await scene.cmd("apophis join", "bob")
    await asyncio.wait_for(stall.reached.wait(), 5)
    reply = await pick(scene, lobby, "difficulty", "hard", "ann")
    assert reply.response_type == 6  # understood; drawn once bob's edit has landed
    stall.release()
    await scene.bot.outbox.drain()
    assert chosen(lobby, "difficulty") == ["hard"] and "Hard: 8:00" in text_of(lobby)
    assert "bob" in text_of(lobby).lower() or str(scene.id("bob")) in text_of(lobby)
    hard = ["Hard: 8:00" in drawn(version) for version in drawings(lobby)]
    assert hard == sorted(hard)  # once hard, never medium again


@pytest.mark.e2e
@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_the_lobby_never_shows_an_older_seat_list_after_a_newer_one(scene):
    """Bob's /apophis join is drawn (2/4) by an edit slow to reach Discord; Cid's Join,
    clicked meanwhile, must not be drawn (3/4) before it lands: the lobby would flicker,
    Cid shown, gone (a stale 2/4), then back."""
    lobby = (await scene.cmd("apophis new", "ann")).message
    stall = scene.fake.stall_next(EDIT_ORIGINAL)
    await scene.cmd("apophis join", "bob")
    await asyncio.wait_for(stall.reached.wait(), 5)
    joined = await scene.click(lobby, "join", "cid")
    assert joined.response_type in (6, 7)
    stall.release()
    await scene.bot.outbox.drain()
    counts = [seated(version) for version in drawings(lobby)]
    assert counts == sorted(counts) and counts[-1] == 3, counts


def test_every_lobby_option_is_a_select_of_the_lobby_and_an_option_of_apophis_new():
    """The table of options (bot.lobby_settings) is what both build from: a select each,
    offering its choices, and /apophis new's option of the same name, described by it."""
    selects = components.lobby_settings(lobby("en", "medium", 10))
    assert [s["custom_id"].rpartition(":")[2] for s in selects] == [o.name for o in LOBBY_OPTIONS]
    for select, option in zip(selects, LOBBY_OPTIONS, strict=True):
        assert tuple(o["value"] for o in select["options"]) == option.choices
    parameters = {parameter.name: parameter for parameter in Apophis.new.parameters}
    for option in LOBBY_OPTIONS:
        parameter = parameters[option.name]
        assert parameter.description == option.help
        if parameter.choices:  # else a range of numbers, as Discord's own
            assert tuple(c.value for c in parameter.choices) == option.choices
