"""The hand panel through the fake Discord: one click a move, refreshed through tokens."""

from __future__ import annotations

import time

import pytest

from bot.discord.pings import WAIT_BEFORE_PING
from bot.discord.tokens import TOKEN_USE_SECONDS
from tests.bot.helpers import Scene, answer_text, bot_state, enabled, text_of

pytestmark = pytest.mark.e2e

TOKEN_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


def uses_of(fake, interaction) -> list:
    """Requests the bot made with an interaction's token (its callback aside)."""
    return [r for r in fake.requests if interaction.token in r.path and "/webhooks/" in r.path]


def selects(message) -> list[dict]:
    """A panel's selects of moves (not its Say menu, tests/game/test_talk.py)."""
    found = message.iter_components()
    return [c for c in found if c["type"] == 3 and not c["custom_id"].endswith(":say")]


@pytest.mark.scene(names=("ann", "bob"))
async def test_every_panel_move_is_one_click_answered_on_the_panel(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", rules="advanced")
    scene.arrange(
        hands=[
            ["2C", "3C", "4C", "5H", "6H", "8D", "9D", "10D"],
            ["2D", "3D", "4S", "5S", "7H"],
        ],
        deck=["7C", "8C", "9C", "10C", "JC", "QC"],
    )
    ann = await scene.panel("ann")
    bob = await scene.panel("bob")
    assert "It is <@" in text_of(bob) and not enabled(bob, "draw")
    private = len(scene.private_to("ann")), len(scene.private_to("bob"))

    # Build: one choice in the builds' select (each section with its price), answered on
    # the panel itself.
    assert not enabled(ann, "scrap")
    (builds,) = [s for s in selects(ann) if s["custom_id"].endswith(":build")]
    # Each build says the rocket it makes: 3 points of green and no fuel fail the check.
    assert {"label": "large green (3♣)", "value": "green.3", "emoji": {"name": "🟩"}} | {
        "description": "→ 3 points, fuel 0 (1 needed) ✗"
    } in builds["options"]
    assert "**Your turn** 🟩" in text_of(ann) and "⏱️" not in text_of(ann)  # (the board's)
    built = await scene.pick(ann, ["green.3"], "ann")
    assert built.response_type == 7 and built.message.id == ann.id
    assert "You built the large green section with 2♣, 3♣ and 4♣." in answer_text(built)
    assert table.game.rocket and table.game.active_player == scene.id("bob")

    # Launch: one click adds a card of every suit held; bob holds ♦ ♠ ♥.
    await bot.outbox.drain()
    assert enabled(bob, "draw")  # his panel was refreshed when his turn came
    assert (
        next(c["label"] for c in bob.iter_components() if ":launch:" in c.get("custom_id", ""))
        == "Launch"
    )  # 3 points with no fuel: grey, not green, and its chances say why
    assert (
        next(c for c in bob.iter_components() if ":launch:" in c.get("custom_id", ""))["style"] == 2
    )
    assert "🚀 Now: it fails the fuel check" in text_of(bob)
    # A chosen subset: one card a suit, never two of one.
    (subset,) = [s for s in selects(bob) if s["custom_id"].endswith(":build")]
    parts = [o["value"] for o in subset["options"] if o["value"].startswith("launch:")]
    assert parts == [
        "launch:7H.2D",
        "launch:7H.4S",
        "launch:2D.4S",
        "launch:7H",
        "launch:2D",
        "launch:4S",
    ]  # every smaller part of the launch, one card a suit (the whole: the button)
    chose = await fake_discord.select(bob, subset["custom_id"], ["launch:2D"], user=scene["bob"])
    await chose.wait_response()
    assert chose.response_type == 7 and "You put 2♦ in the launch sequence" in answer_text(chose)

    # Draw (ann, over the limit), then discard exactly the excess: a button a card, the
    # second pressed discarding both (no Discard button to press after).
    await bot.outbox.drain()
    drew = await scene.press(ann, "draw", "ann")
    assert drew.response_type == 7 and "discard 2 cards" in answer_text(drew)
    assert not selects(ann) and not enabled(ann, "discard")
    chose = await scene.choose(ann, ["5H"], "ann")
    assert chose.response_type == 7 and enabled(ann, "discard:5H.6H")
    gone = await scene.choose(ann, ["6H"], "ann")
    assert gone.response_type == 7 and "You discarded 5♥ and 6♥" in answer_text(gone)

    # Scrap (bob), and a refused move is told on the panel, which stays current.
    await bot.outbox.drain()
    scrapped = await scene.press(bob, "build", "bob", arg="scrap")  # in the select of moves
    assert (
        scrapped.response_type == 7
        and "You scrapped the rocket: its sections went back to the depot." in answer_text(scrapped)
    )
    stale = await scene.press(bob, "refresh", "bob")
    assert stale.response_type == 7 and "It is <@" in answer_text(stale)
    # Every move answered on the panels: no new private message was left behind.
    assert (len(scene.private_to("ann")), len(scene.private_to("bob"))) == private
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_reroll_and_accept_from_the_panel_keep_one_report(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", rules="advanced")
    scene.arrange(
        hands=[["2C", "2H", "2D", "2S"], ["9H"]],
        rocket=[("red", 3), ("green", 3), ("yellow", 3)],  # 1 fail-safe
        dice=[2, 1, 1, 1, 6],  # launch 2; accuracy 1 fails; reroll 1 fails; accept
    )
    ann = await scene.panel("ann")
    await scene.press(ann, "launch", "ann")
    assert enabled(ann, "reroll") and enabled(ann, "accept")
    await scene.press(ann, "reroll", "ann")
    (report,) = await fake_discord.wait_for(
        lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
    )
    await bot.outbox.drain()
    assert "rerolls the accuracy" in text_of(report)
    assert table.game.phase.value == "play"  # no fail-safe left: the miss stands
    assert "The launch failed" in text_of(report) and not list(report.iter_components())
    assert [m for m in scene.public() if "Launch report" in text_of(m)] == [report]
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_reroll_and_accept_are_on_the_report_and_the_launchers_panel_not_the_board(
    fake_discord, scene
):
    bot = scene.bot
    await scene.new_game("ann", "bob", rules="advanced")
    scene.arrange(
        hands=[["2C", "2H", "2D", "2S"], ["9H"]],
        rocket=[("red", 3), ("green", 2), ("yellow", 2)],
        dice=[2, 1, 2],  # launch 2; accuracy 1 fails; reroll 2 fails
    )
    await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
    (report,) = await fake_discord.wait_for(
        lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
    )
    await bot.outbox.drain()
    assert "Reroll" in str(report.components)
    actions = [c.get("custom_id", "").split(":")[-1] for c in scene.board().iter_components()]
    assert "hand" in actions and not {"reroll", "accept"} & set(actions)
    assert enabled(await scene.panel("ann"), "reroll")  # the launcher's panel has them
    bobs = [c.get("custom_id", "") for c in (await scene.panel("bob")).iter_components()]
    assert not [i for i in bobs if i.endswith((":reroll", ":accept"))]
    rerolled = await scene.click(report, "reroll", "ann")
    assert rerolled.response_type == 7
    await bot.outbox.drain()
    # One report per launch, updated in place: its buttons are gone once settled.
    assert [m for m in scene.public() if "Launch report" in text_of(m)] == [report]
    assert "rerolls the accuracy" in text_of(report) and not list(report.iter_components())


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_panel_is_refreshed_through_the_token_when_the_turn_comes(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["3C"]], deck=["4C", "5C", "6C", "7C"])
    bob = await scene.panel("bob")
    opened = fake_discord.world.interactions[bob.interaction_id]
    assert not enabled(bob, "draw")
    await scene.cmd("draw", "ann")
    await bot.outbox.drain()
    assert enabled(bob, "draw") and "**Your turn**" in text_of(bob)
    assert [r.route for r in uses_of(fake_discord, opened)] == [TOKEN_EDIT]
    assert table.game.active_player == scene.id("bob")


@pytest.mark.scene(names=("ann", "bob"))
async def test_an_old_token_is_never_used(fake_discord, scene):
    bot = scene.bot
    await scene.new_game("ann", "bob")
    bob = await scene.panel("bob")
    opened = fake_discord.world.interactions[bob.interaction_id]
    bot.outbox.clock = lambda: time.monotonic() + TOKEN_USE_SECONDS + 1
    fake_discord.advance_time(TOKEN_USE_SECONDS + 1)
    await scene.cmd("draw", "ann")
    await bot.outbox.drain()
    assert uses_of(fake_discord, opened) == []
    assert not enabled(bob, "draw")  # left as it was: his next click redraws it


@pytest.mark.parametrize("gone", ["dismissed", "expired"])
@pytest.mark.scene(names=("ann", "bob"))
async def test_a_dead_token_is_used_once_and_never_again(fake_discord, scene, gone):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["3C"]], deck=["4C", "5C", "6C", "7C", "8C", "9C"])
    bob = await scene.panel("bob")
    opened = fake_discord.world.interactions[bob.interaction_id]
    if gone == "dismissed":
        fake_discord.dismiss(bob)  # 404 Unknown Message
    else:
        fake_discord.expire_token(opened)  # 401, code 50027
    await scene.cmd("draw", "ann")  # bob's turn: his panel would be refreshed
    await bot.outbox.drain()
    assert [r.status for r in uses_of(fake_discord, opened)] == [
        404 if gone == "dismissed" else 401
    ]
    await scene.cmd("draw", "bob")
    await scene.cmd("draw", "ann")  # his turn again: the dead token is not tried
    await bot.outbox.drain()
    assert len(uses_of(fake_discord, opened)) == 1 and table.version == 3


@pytest.mark.scene(names=("ann", "bob", "cid"), timer=True)
async def test_turn_pings_notify_only_the_next_player_and_replace_each_other(
    fake_discord, scene, timer
):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", "cid")
    scene.arrange(hands=[["2C"], ["3C"], ["4C"]], deck=[f"{r}H" for r in range(2, 11)])
    await bot.outbox.drain()
    assert fake_discord.notified(scene["ann"]) == []  # she started: no ping for her
    await scene.cmd("draw", "ann")
    await bot.outbox.drain()
    assert [m for m in scene.public() if "your turn" in m.content] == []  # not at once
    await timer.advance(WAIT_BEFORE_PING)  # bob's turn waits for him
    await bot.outbox.drain()
    (ping,) = [m for m in scene.public() if "your turn" in m.content]
    assert ping.notified == {scene.id("bob")}
    assert fake_discord.notified(scene["ann"]) == fake_discord.notified(scene["cid"]) == []
    panel = await scene.panel("bob")
    await fake_discord.wait_for(lambda: ping.deleted)  # he saw it: it comes down
    await scene.press(panel, "draw", "bob")
    await timer.advance(WAIT_BEFORE_PING)
    await bot.outbox.drain()
    live = [m for m in scene.public() if "your turn" in m.content]
    assert [m.notified for m in live] == [{scene.id("cid")}]
    assert fake_discord.notified(scene["bob"]) == [ping]  # never for his own move
    assert table.version == 2


async def test_a_solo_player_is_never_pinged_and_a_server_can_turn_pings_off(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    boss = fake_discord.add_member(scene.guild, "boss")
    scene.guild.owner_id = boss.user.id
    scene.members["boss"] = boss
    async with fake_discord.connected(bot):
        solo = await scene.new_game("ann")
        for _ in range(3):
            await scene.cmd("draw", "ann")
            if solo.game.phase.value == "discard":
                await scene.cmd("discard", "ann", cards=" ".join(solo.game.hands[0][5:]))
        await bot.outbox.drain()
        assert fake_discord.notified(scene["ann"]) == []
        await scene.cmd("apophis end", "ann")
        done = await scene.cmd("apophis config", "boss", pings=False)
        assert "Turn pings: off" in done.response_data["content"]
        await scene.new_game("ann", "bob")
        await scene.cmd("draw", "ann")
        await bot.outbox.drain()
        assert fake_discord.notified(scene["bob"]) == []


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_buried_board_is_posted_again_with_one_live_board(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    old = scene.board()
    for i in range(11):  # the team chats below the board
        await fake_discord.say(scene.channel, scene["bob"], f"message {i}")
    await bot_state(lambda: table.messages.below == 11)
    await scene.cmd("draw", "ann")
    await fake_discord.wait_for(lambda: "moved down" in old.content)
    board = scene.board()
    assert board.id != old.id and board.id > max(m.id for m in scene.public() if m is not board)
    assert [m for m in scene.public() if m.components] == [board] and not old.components
    assert table.messages.below == 0
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_skip_that_discards_for_a_player_refreshes_their_panel(scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C", "4C", "5C", "6C"], ["2D"]], deck=["7H", "8H"])
    ann = await scene.panel("ann")
    await scene.press(ann, "draw", "ann")  # 7 cards: she must discard 2...
    assert "discard 2 cards" in text_of(ann)
    await scene.cmd("apophis skip", "ann")  # ...but the host (herself) skips her turn
    await bot.outbox.drain()
    assert "Your hand (5 cards)" in text_of(ann)  # redrawn through her token
    assert "It is <@" in text_of(ann) and table.game.active_player == scene.id("bob")


@pytest.mark.scene(names=("ann", "bob"))
async def test_during_a_launch_sequence_build_is_disabled_and_the_real_reason_given(scene):
    bot = scene.bot
    await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["5D", "6D"]], rocket=[("red", 3)], sequence=["9S"])
    await scene.cmd("draw", "ann")
    await bot.outbox.drain()
    board = scene.board()
    assert enabled(board, "draw")  # the board's one move (the others are on the panel)
    assert "launch sequence 1 of 4" in text_of(board)  # the strip's (its alt text here)
    details = await scene.click(board, "details", "ann")
    assert "add ♣ ♥ ♦ to the launch sequence (or draw, or scrap)" in text_of(details.message)
    panel = await scene.panel("bob")
    assert "Add ♣ ♥ ♦ to launch; no building till then." in text_of(panel)
    assert not [c for c in panel.iter_components() if ":build:" in c.get("custom_id", "")]
    typed = await scene.cmd("build", "bob", colour="blue", size="small")
    assert "A launch sequence has started" in answer_text(typed)


@pytest.mark.scene(names=("ann", "bob"))
async def test_launch_needs_a_rocket_and_is_disabled_without_one(scene):
    bot = scene.bot
    await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    board = scene.board()
    assert "to play." in text_of(board)  # (what they may play: their panel's to say)
    panel = await scene.panel("ann")
    assert not enabled(panel, "launch") and not enabled(panel, "scrap")


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_refused_panel_move_leaves_no_picker_behind(scene):
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C"], ["5D"]], rocket=[("red", 1)])
    panel = await scene.panel("ann")
    await scene.bot.outbox.drain()  # the start's panel removed: this one is hers
    before = len(scene.private_to("ann"))
    assert before == 1
    table.game.hands[0].remove("2C")  # the hand changed since the panel was drawn
    refused = await scene.press(panel, "launch", "ann")
    assert refused.response_type == 7 and "⚠️" in answer_text(refused)
    assert len(scene.private_to("ann")) == before and table.version == 0
