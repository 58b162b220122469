"""Whole games through the fake Discord, from /apophis new to a win or a loss."""

from __future__ import annotations

import logging

import pytest

from bot.discord import jobs
from bot.views import components, embeds, render
from engine import RESHUFFLE_SECONDS, Phase, card_label
from tests.bot.helpers import CARD, Scene, answer_text, button_id, text_of

pytestmark = pytest.mark.e2e

ALL_SUITS = ["2C", "2H", "2D", "2S"]


@pytest.mark.scene(names=("ann",))
async def test_solo_basic_game_won_by_destroying_apophis(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", difficulty="easy", rules="basic")
    await fake_discord.wait_for(lambda: fake_discord.dms(scene["ann"]))
    assert "the game began" in fake_discord.dms(scene["ann"])[0].content
    scene.arrange(hands=[[]], damage=1, dice=[6, 6, 6, 6])
    for launch in (1, 2):
        table.game.hands[0] += ["3H", "4H", "5H", "KS", "QS"]  # drawn meanwhile
        reply = await scene.cmd("build", "ann", colour="red", size="large")
        built = "You built the large red section with 3♥, 4♥ and 5♥."
        assert reply.ephemeral and built in text_of(reply.message)
        reply = await scene.cmd("build", "ann", colour="yellow", size="medium")
        assert reply.ephemeral
        table.game.hands[0] += ALL_SUITS
        reply = await scene.cmd("launch", "ann", cards="2C 2♥ 2d 2S")
        assert reply.ephemeral and "Launch!" in text_of(reply.message)
        if launch == 1:
            (report,) = await fake_discord.wait_for(
                lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
            )
            text = text_of(report)
            assert "Fuel check: fuel 2 of 5 points, needs 2 — enough" in text
            assert "Accuracy: 🎲 6 + Apophis's value 2 + guidance 0 = 8 (needs 7) — hit" in text
            assert "Apophis is damaged (2/3)" in text
    await bot.outbox.drain()
    board = await scene.final_story(table)  # the log and the launches: behind its Details
    assert "Victory" in board and "destroyed" in board and "damaged a third time" in board
    # Each launch in one line on the final board, in place of the reports.
    ann = f"<@{scene.id('ann')}>"  # who launched each
    assert f"1. {ann}: 🟥L 🟨M, 5 pts → hit, damage 2/3, deflection 1/5\n" in board
    assert f"2. {ann}: 🟥L 🟨M, 5 pts → hit, damage 3/3" in board
    assert scene.board(table).embeds[0]["color"] == embeds.WIN_COLOUR
    assert not table.open and scene.bot.service.by_channel.get(scene.channel.id) is None
    stats = await bot.store.stats(scene.guild.id)
    assert stats.tallies[0].wins == 1
    (dm,) = fake_discord.dms(scene["ann"])  # one DM for the whole game, edited
    assert "The game is over: Apophis was destroyed" in dm.content and dm.history
    # The channel holds the final board, nothing else: the report went with the game.
    assert [m.id for m in scene.public()] == [table.messages.board_id] and report.deleted
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_two_players_basic_game_won_by_deflection_from_the_panel(scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", difficulty="hard")
    scene.arrange(
        hands=[ALL_SUITS, ["9H"]],
        rocket=[("green", 3), ("yellow", 1)],
        counters=4,
        dice=[6, 6],
    )
    bobs = await scene.panel("bob")
    assert "It is <@" in text_of(bobs) and all(
        c.get("disabled") for c in bobs.iter_components() if ":launch" in c.get("custom_id", "")
    )
    panel = await scene.panel("ann")
    assert panel.visible_to == scene.id("ann")
    assert button_label(panel, "launch") == "Launch"  # (of the four suits: its custom id)
    chosen = await scene.press(panel, "launch", "ann")  # one click for the four suits
    assert chosen.response_type == 7 and chosen.message.id == panel.id
    assert "Launch!" in answer_text(chosen)  # (the game's end may have redrawn it since)
    await bot.outbox.drain()
    board = await scene.final_story(table)
    assert "Victory" in board and "Apophis is deflected" in board
    assert "4 pts → hit, deflection 5/5" in board  # (the rocket was arranged, not built)
    assert [m.id for m in scene.public()] == [table.messages.board_id]  # no report left
    assert (await bot.store.stats(scene.guild.id)).tallies[0].wins == 1
    scene.assert_no_cards_in_public()


def button_label(message, action: str) -> str:
    return next(
        c["label"]
        for c in message.iter_components()
        if c.get("custom_id") == button_id(message, action)
    )


async def test_four_players_advanced_game_won_with_a_fail_safe_reroll(
    fake_discord, make_bot, caplog
):
    caplog.set_level(logging.DEBUG, logger="bot")
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", "cid", "dee", rules="advanced")
        scene.arrange(
            hands=[ALL_SUITS, ["9H"], ["9D"], ["9S"]],
            rocket=[("red", 3), ("green", 2), ("yellow", 2)],
            damage=2,
            dice=[2, 1, 6, 4],  # launch roll 4; accuracy 1+1 misses; reroll 6 hits; damage 7
        )
        await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
        (report,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
        )
        assert "may spend a fail-safe to reroll the accuracy roll (1 left)" in text_of(report)
        refused = await scene.click(report, "reroll", "bob")
        assert refused.ephemeral and "Only the player who launched" in str(refused.response_data)
        rerolled = await scene.click(report, "reroll", "ann")
        assert rerolled.response_type == 7
        await bot.outbox.drain()
        text = text_of(report)  # as the reroll showed it, before it went with the game
        assert "Accuracy: 🎲 6 + Apophis's value 1 + guidance 0 = 7 (needs 7) — hit" in text
        assert "breaks apart" in text and not list(report.iter_components())
        assert not table.open and report.deleted
        assert "pts → hit, damage 3/3" in await scene.final_story(table)
        assert [m.id for m in scene.public()] == [table.messages.board_id]
        scene.assert_no_cards_in_public()
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert logged and not [line for line in logged if CARD.search(line)]


@pytest.mark.scene(names=("ann", "bob"), timer=True)
async def test_the_clock_runs_out_and_apophis_hits_earth(fake_discord, scene, timer):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", minutes=1)
    await timer.advance(49)
    await bot.outbox.drain()
    assert table.open and "10 seconds left" not in text_of(scene.board(table))
    await timer.advance(1)
    await bot.outbox.drain()
    assert table.open and "10 seconds left" in text_of(scene.board(table))
    await timer.advance(10)
    lost = await fake_discord.wait_for(
        lambda: [m for m in scene.public() if "Apophis hits Earth" in m.content]
    )
    assert lost and not table.open
    await bot.outbox.drain()
    board = scene.board(table)
    told = await scene.final_story(table)  # (the clock's warnings: in the log, behind Details)
    assert "ran out of time" in text_of(board) and "10 seconds left" in told
    assert board.embeds[0]["color"] == embeds.LOSS_COLOUR
    refused = await scene.cmd("draw", "ann")
    assert refused.ephemeral and "no Apophis game" in refused.response_data["content"]
    tally = (await bot.store.stats(scene.guild.id)).tallies[0]
    assert (tally.games, tally.losses, tally.difficulty) == (1, 1, "custom")


@pytest.mark.scene(names=("ann",), timer=True)
async def test_each_warning_comes_once_and_in_order(fake_discord, scene, timer):
    bot = scene.bot
    await scene.autopilot_off()  # ann thinks through the whole game
    table = await scene.new_game("ann", minutes=6)
    await timer.advance(5 * 60)  # to the last minute
    await bot.outbox.drain()
    assert scene.board(table).embeds[0]["color"] == embeds.URGENT_COLOUR
    await timer.advance(60)
    await fake_discord.wait_for(
        lambda: [m for m in scene.public() if "Apophis hits Earth" in m.content]
    )
    await bot.outbox.drain()
    # On the board (its last actions), not as messages of their own.
    assert not [m for m in scene.public() if "left** before Apophis" in m.content]
    board = await scene.final_story(table)  # its last actions: behind Details
    warnings = [line for line in board.split("\n") if "left** before Apophis" in line]
    assert [w.split("**")[1] for w in warnings] == [
        "5 minutes left",
        "1 minute left",
        "10 seconds left",
    ]


async def test_players_whose_dms_are_closed_are_pointed_to_hand(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    fake_discord.set_dms_open(scene["bob"], False)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        notice = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "cannot send you direct messages" in m.content]
        )
        assert render.mention(scene.id("bob")) in notice[0].content
        assert fake_discord.dms(scene["bob"]) == [] and fake_discord.dms(scene["ann"])
        hand = await scene.cmd("hand", "bob")
        assert hand.ephemeral and hand.message.visible_to == scene.id("bob")
        for card in table.game.hands[1]:
            assert card_label(card) in text_of(hand.message)
        scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_out_of_turn_and_outsiders_are_refused_politely(scene):
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C", "4D", "2H"], ["5S", "6S", "7S", "8S"]])
    before = table.game.save()
    for user, command, expected in [
        ("bob", "draw", "It is not your turn."),
        ("cid", "draw", "You are not playing in this game."),
        ("cid", "hand", "You are not playing in this game"),
        ("bob", "scrap", "It is not your turn."),
    ]:
        reply = await scene.cmd(command, user)
        assert reply.ephemeral, (command, user)
        assert expected in reply.response_data["content"]
    reply = await scene.cmd("build", "ann", colour="red", size="large")
    assert reply.ephemeral and "costs 3 hearts ♥; you have 1" in reply.response_data["content"]
    reply = await scene.cmd("launch", "ann", cards="7Z")
    assert reply.ephemeral and "could not read" in reply.response_data["content"]
    reply = await scene.cmd("apophis start", "ann")
    assert reply.ephemeral and "already started" in reply.response_data["content"]
    assert table.game.save() == before and table.version == 0


@pytest.mark.scene(names=("ann", "bob"), timer=True)
async def test_an_empty_deck_is_reshuffled_for_ten_seconds_of_game_time(fake_discord, scene, timer):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["3C"]], deck=["4C"])
    reply = await scene.cmd("draw", "ann")
    assert "You drew 4♣" in text_of(reply.message)
    assert "The discard pile is being shuffled" in text_of(reply.message)
    await bot.outbox.drain()
    assert "Shuffling a new deck, 10 s." in text_of(scene.board())
    details = await scene.click(scene.board(), "details", "ann")  # the log: behind Details
    assert "shuffling 45 discarded cards into a new deck (10 s)" in text_of(details.message)
    refused = await scene.cmd("draw", "bob")
    assert refused.ephemeral and "being shuffled" in refused.response_data["content"]
    assert len(table.game.hands[0]) == 2  # the second card waits for the new deck
    await timer.advance(9.9)
    assert len(table.game.hands[0]) == 2 and table.game.phase is Phase.RESHUFFLE
    await timer.advance(0.1)
    panel = reply.message  # Ann's panel, the draw's answer: redrawn when the second card comes
    await fake_discord.wait_for(lambda: "(3 cards)" in text_of(panel))
    assert len(table.game.hands[0]) == 3 and table.game.active_player == scene.id("bob")
    assert len(table.game.deck) == 44 and not table.game.discard_pile
    # The board shows the new deck's first draw as soon as it is (no "Shuffling" left
    # over); its Details say the new deck is ready.
    board = await fake_discord.wait_for(lambda: "drew 1 card" in text_of(scene.board()))
    assert board and "Shuffling a new deck" not in text_of(scene.board())
    assert "new deck is ready" in str(components.board_details(table).embed.fields)


async def test_the_board_shows_the_new_deck_as_soon_as_it_is_dealt(
    fake_discord, make_bot, monkeypatch, timer
):
    # Jobs that wait for an interaction's answer wait this long; a reshuffle has no
    # interaction, so its board must not wait at all (it showed "Shuffling…" 0.5 s late).
    monkeypatch.setattr(jobs, "HOLD_SECONDS", 60.0)
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["2C"], ["3C"]], deck=["4C"])
        await scene.cmd("draw", "ann")
        await timer.advance(RESHUFFLE_SECONDS)
        print("BOARD", list(table.recent))
        await fake_discord.wait_for(lambda: "drew 1 card" in text_of(scene.board(table)))
        assert "Shuffling" not in text_of(scene.board(table))
