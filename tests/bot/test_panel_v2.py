"""The hand panel as a Components V2 layout: the JSON discord.py's LayoutView sends for the
same layout, flagged as Discord requires when new and when edited, within Discord's limits,
and taken by the fake Discord in a server and in a group DM; and the fake refusing what
Discord refuses of a V2 message."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest
from discord import ui

from bot.discord import embeds
from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import panel, render
from bot.views.message import IS_COMPONENTS_V2
from devtools.fakediscord import ViolationKind, layout
from tests.bot.helpers import Scene, bot_state, button_id, note_of, text_of
from tests.engine.helpers import table as position

EPHEMERAL = 1 << 6
#: Keys discord.py writes out with Discord's own default (Discord reads them as absent).
DEFAULTS = {"disabled": False, "spoiler": False, "required": True, "default": False}
YOUR_TURN = "🔔 **It is your turn.**"


def table_with(**arranged: Any) -> Table:
    game = position(players=(1, 2), **arranged)
    return Table(
        1,
        10,
        100,
        1,
        LobbySettings("basic", "easy", 10),
        "active",
        [1, 2],
        game=game,
        deadline=None,
    )


def as_sent(components: Any) -> Any:
    """Components as Discord reads them: discord.py's explicit defaults left out."""
    if isinstance(components, list):
        return [as_sent(item) for item in components]
    if not isinstance(components, dict):
        return components
    kept = {k: as_sent(v) for k, v in components.items() if DEFAULTS.get(k, ...) != v}
    if kept.get("id", ...) is None:  # an emoji's id: none for a unicode emoji
        del kept["id"]
    return kept


def item(sent: dict[str, Any]) -> ui.Item:
    """discord.py's button or select for one of the panel's."""
    emoji = (sent.get("emoji") or {}).get("name")
    if sent["type"] == 2:
        return ui.Button(
            style=discord.ButtonStyle(sent["style"]),
            label=sent.get("label"),
            custom_id=sent["custom_id"],
            emoji=emoji,
            disabled=sent.get("disabled", False),
        )
    options = [
        discord.SelectOption(
            label=o["label"],
            value=o["value"],
            emoji=o["emoji"]["name"],
            description=o.get("description"),
        )
        for o in sent["options"]
    ]
    return ui.Select(
        custom_id=sent["custom_id"],
        placeholder=sent["placeholder"],
        min_values=sent["min_values"],
        max_values=sent["max_values"],
        options=options,
    )


def test_the_panel_is_what_a_layout_view_sends_for_the_same_layout():
    table = table_with(hands=[["2H", "3H", "5D"], ["2C"]], rocket=[("yellow", 2)])
    message = panel.panel_message(table, 1, "en", "You drew 5♦.", now=0)
    sent = message.components.to_components()
    by_id = {c["custom_id"]: c for c in layout.walk(sent) if "custom_id" in c}
    row = ["draw", "launch:2H.5D", "hint"]  # (Scrap and a part of the launch: in the select)
    view = ui.LayoutView()
    view.add_item(ui.TextDisplay("You drew 5♦."))
    view.add_item(
        ui.TextDisplay("**Your turn** 🟥 2♥ 3♥ 🟦 5♦\n-# 🚀 Now: 0% to damage, 0% to deflect")
    )
    view.add_item(ui.ActionRow(*(item(by_id[f"apo:h:1:0:{tail}"]) for tail in row)))
    view.add_item(ui.ActionRow(item(by_id["apo:p:1:0:build"])))  # the other moves: one select
    assert "apo:p:1:0:say" not in by_id  # table talk: while the others play
    assert as_sent(sent) == as_sent(view.to_components())
    assert message.components.has_components_v2() and view.has_components_v2()


def test_a_new_panel_is_flagged_and_an_edit_clears_content_and_embeds():
    message = panel.panel_message(table_with(hands=[["2H"], ["2C"]]), 1, "en", now=0)
    new, edit = message.json(new=True), message.json()
    assert new["flags"] == edit["flags"] == IS_COMPONENTS_V2
    assert "content" not in new and "embeds" not in new
    assert edit["content"] is None and edit["embeds"] == []
    assert embeds.kwargs(message, new=True)["view"].has_components_v2()  # discord.py sets the flag
    assert embeds.kwargs(message)["content"] is None and embeds.kwargs(message)["embeds"] == []
    with pytest.raises(ValueError, match="all components"):
        type(message)(content="words", components=message.components)


def test_the_status_names_whose_turn_it_is_and_an_ended_panel_has_no_moves():
    table = table_with(hands=[["2H"], ["2C"]])

    def shown(player: int) -> list[dict[str, Any]]:
        return panel.panel_message(table, player, "en", now=0).components.to_components()

    assert shown(1)[0]["content"].startswith("**Your turn** 🟥 2♥")
    assert shown(2)[0]["content"].split("\n")[1] == "It is <@1>'s turn."  # out of turn
    table.status = "ended"
    assert [c["type"] for c in shown(1)] == [10]  # hand and status: no rows


def test_the_fullest_panel_keeps_within_discords_limits():
    hand = [f"{rank}{suit}" for suit in "HDCS" for rank in (2, 3, 4)]
    table = table_with(hands=[hand, ["5C"]], rocket=[("yellow", 3)])
    message = panel.panel_message(table, 1, "en", "x" * 5000, now=0)
    sent = message.components.to_components()
    (builds,) = [c for c in layout.walk(sent) if c.get("custom_id", "").endswith(":build")]
    sections = [o for o in builds["options"] if "." in o["value"] and ":" not in o["value"]]
    assert len(sections) == panel.MAX_BUILD_BUTTONS  # one select of them, and of the rest:
    assert len(builds["options"]) == 25  # 14 parts of a four-suit launch and Scrap: Discord's most
    assert any(":launch:" in c.get("custom_id", "") for c in layout.walk(sent))
    assert len(list(layout.walk(sent))) <= layout.COMPONENT_LIMIT
    assert len(sent[0]["content"]) == render.CONTENT_LIMIT  # the note, cut
    assert layout.new_problem(message.json(new=True) | {"flags": IS_COMPONENTS_V2 | 64}) is None
    assert layout.edit_problem(IS_COMPONENTS_V2 | EPHEMERAL, message.json()) is None
    assert layout.edit_problem(EPHEMERAL, message.json()) is None  # a panel from before V2


# ------------------------------------------------------------- through the fake Discord


def response_flags(reply) -> int:
    return reply.response_data.get("flags") or 0


@pytest.mark.scene(names=("ann", "bob"))
async def test_in_a_server_every_panel_is_an_ephemeral_layout(fake_discord, scene):
    await scene.cmd("apophis new", "ann")
    await scene.cmd("apophis join", "bob")
    start = await scene.cmd("apophis start", "ann", first=scene["ann"])  # discord.py's send
    assert response_flags(start) == EPHEMERAL | IS_COMPONENTS_V2
    assert start.message.flags == EPHEMERAL | IS_COMPONENTS_V2 and not start.message.content
    assert "game has started" in note_of(start.message) and "Your turn" in text_of(start.message)
    table = scene.live()
    scene.arrange(hands=[["2C", "3C", "4C"], ["5C"]], deck=["6C", "7C", "8C", "9C"])
    first = await scene.panel("ann")  # My hand: Tokens.respond
    assert first.flags == EPHEMERAL | IS_COMPONENTS_V2
    assert first.content == "" and first.embeds == [] and "Your turn" in text_of(first)
    drew = await scene.press(first, "draw", "ann")  # the panel updated in the answer
    assert drew.response_type == 7 and response_flags(drew) == IS_COMPONENTS_V2
    assert drew.response_data["content"] is None and drew.response_data["embeds"] == []
    assert first.flags == EPHEMERAL | IS_COMPONENTS_V2 and "you drew" in note_of(first).lower()
    assert table.game.active_player == scene.id("bob")
    typed = (await scene.cmd("hand", "ann")).message  # a newer panel: the first goes
    await fake_discord.wait_for(lambda: first.deleted)
    assert typed.flags == EPHEMERAL | IS_COMPONENTS_V2 and button_id(typed, "refresh")


async def test_in_a_group_dm_the_panels_are_layouts_redrawn_through_their_tokens(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"), group_dm=True)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        hands = [["2C", "3C", "4C"], ["5C"]]
        scene.arrange(hands=hands, deck=["6C", "7C", "8C", "9C"], active=0)
        assert table.game.active_player == scene.id("ann")
        ann, bob = await scene.panel("ann"), await scene.panel("bob")
        assert ann.flags == bob.flags == EPHEMERAL | IS_COMPONENTS_V2
        assert f"It is <@{scene.id('ann')}>'s turn." in text_of(bob)  # ann's turn
        await scene.press(ann, "draw", "ann")
        assert table.game.active_player == scene.id("bob")
        await bot.outbox.drain()  # bob's panel redrawn through his token: his turn now
        await bot_state(lambda: note_of(bob) == YOUR_TURN)
        assert "**Your turn**" in text_of(bob) and not bob.content
        assert bob.flags == EPHEMERAL | IS_COMPONENTS_V2
        assert not [r for r in fake_discord.requests if "/channels/" in r.path]


# --------------------------------------------------- what the fake refuses, as Discord


@pytest.mark.scene(names=("ann",))
async def test_the_fake_refuses_what_discord_refuses_of_a_v2_message(fake_discord, scene):
    channel = f"{fake_discord.api_base_url}/channels/{scene.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake_discord.bot_token}"}
    text = {"type": 10, "content": "words"}
    box = {"type": 17, "components": [text] * 40}  # 41 components with its container

    async with aiohttp.ClientSession(headers=headers) as session:

        async def send(method: str, url: str, body: dict[str, Any]) -> int:
            async with session.request(method, url, json=body) as answer:
                return answer.status

        async def refused(method: str, url: str, body: dict[str, Any], why: str) -> None:
            assert await send(method, url, body) == 400, why
            violation = await fake_discord.expect_violation(ViolationKind.COMPONENTS_V2)
            assert why in violation.message

        v2 = IS_COMPONENTS_V2
        worded = {"flags": v2, "content": "x", "components": [text]}
        await refused("POST", channel, worded, "with content")
        await refused("POST", channel, {"components": [text]}, "need IS_COMPONENTS_V2")
        await refused("POST", channel, {"flags": v2, "components": [box]}, "41 components")
        async with session.post(channel, json={"content": "an embed's era"}) as answer:
            legacy = f"{channel}/{(await answer.json())['id']}"
        await refused("PATCH", legacy, {"flags": v2, "components": [text]}, "reset content")
        await refused("PATCH", legacy, {"flags": v2, "content": None}, "reset embeds")
        turned = {"flags": v2, "content": None, "embeds": [], "components": [text]}
        assert await send("PATCH", legacy, turned) == 200
        message = fake_discord.world.messages[int(legacy.rsplit("/", 1)[1])]
        assert message.flags == v2 and message.content == "" and text_of(message) == "words"
        await refused("PATCH", legacy, {"flags": 0, "content": "back"}, "cannot remove")
        await refused("PATCH", legacy, {"content": "back"}, "content on an IS_COMPONENTS_V2")
        assert message.flags == v2 and text_of(message) == "words"


def test_a_text_display_holds_1_to_4000_characters():
    def body(content: str) -> dict[str, Any]:
        return {"flags": IS_COMPONENTS_V2, "components": [{"type": 10, "content": content}]}

    assert layout.new_problem(body("x" * 4000)) is None
    assert "4001 characters" in layout.new_problem(body("x" * 4001))
    assert "0 characters" in layout.new_problem(body(""))
