"""What players read: hand DMs under rate limits, the rules, the statistics, the board."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.helpers import (
    bot_state,
    content,
    text_of,
)

pytestmark = pytest.mark.e2e


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_latest_hand_survives_discord_slowing_the_bot_down(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await fake_discord.wait_for(
        lambda: fake_discord.dms(scene["ann"]) and fake_discord.dms(scene["bob"])
    )
    for _ in range(6):  # more than discord.py retries by itself: the outbox must retry
        fake_discord.rate_limit_next(
            "PATCH /channels/{channel_id}/messages/{message_id}", retry_after=0.01
        )
    await scene.cmd("draw", "ann")
    await scene.cmd("discard", "ann", cards=table.game.hands[0][0])
    hand = table.game.hands[0]
    await fake_discord.wait_for(lambda: scene.hand_seen("ann", hand) == "panel")
    await bot.outbox.drain()  # her DM, edited through the 429s, says her hand is in her panel
    assert len(fake_discord.dms(scene["ann"])) == 1  # the same DM, edited
    throttled = [r for r in fake_discord.requests if r.status == 429]
    assert len(throttled) == 6


@pytest.mark.scene(names=("ann",), APOPHIS_GLOBAL_RATE="22.5")
async def test_a_429_from_a_rest_proxy_is_retried(fake_discord, scene):
    bot = scene.bot
    assert bot.outbox.limiter.rate == 22.5  # the share set for it
    await scene.new_game("ann")
    await fake_discord.wait_for(lambda: fake_discord.dms(scene["ann"]))
    # A proxy's 429 has no Via header: discord.py raises it instead of waiting.
    route = "PATCH /channels/{channel_id}/messages/{message_id}"  # the hand DM's edit
    fake_discord.rate_limit_next(route, retry_after=0.05, via=False)
    await scene.cmd("draw", "ann")
    await fake_discord.wait_for(
        lambda: "in your panel" in fake_discord.dms(scene["ann"])[0].content
    )
    assert [r.status for r in fake_discord.requests_to(route)][:2] == [429, 200]


@pytest.mark.scene(names=("ann",))
async def test_rules_and_stats_are_shown_privately(scene):
    rules = await scene.cmd("apophis rules", "ann")
    assert rules.ephemeral and "How to play Apophis" in text_of(rules.message)
    empty = await scene.cmd("apophis stats", "ann")
    assert empty.ephemeral and "No game has finished here yet" in text_of(empty.message)
    table = await scene.new_game("ann", minutes=3)
    scene.arrange(
        hands=[["2C", "2H", "2D", "2S"]],
        rocket=[("red", 3), ("yellow", 1)],
        damage=2,
        dice=[6, 6],
    )
    await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
    assert not table.open
    stats = await scene.cmd("apophis stats", "ann")
    text = text_of(stats.message)
    assert "basic, custom**: 1 game — 1 won, 0 lost" in text  # "1 game", not "1 games"
    assert "Fastest wins" in text and "1 player" in text


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_board_shows_the_whole_table(scene):
    bot = scene.bot
    bot.service.set_pictures(scene.guild.id, False)  # in words only: test_board_picture
    table = await scene.new_game("ann", "bob", difficulty="medium")
    scene.arrange(
        hands=[["2C", "3C", "4C", "5H", "6H"], ["7D"]],
        rocket=[("red", 3), ("blue", 2)],
        sequence=["9S"],
        damage=1,
        counters=2,
    )
    await scene.cmd("launch", "ann", cards="2C 5H")
    await bot.outbox.drain()
    board = text_of(scene.board(table))
    for expected in [
        "value **2**",
        "damage 1/3",
        "deflection ●●○○○ 2/5",
        "bottom to top:\n🟥 large red\n🟦 medium blue",
        "points: 🟥3 🟦2 = 5",
        "Launch sequence (3/4)",
        "🟨 🟩 🟥\nneeds ♦",
        "deck ",
        "discard pile ",
        "3 cards",
        "1 card",
        "Apophis arrives <t:",
        "added 🟩 🟥 to the launch sequence",
    ]:
        assert expected in board, expected
    waits = "to play: add ♦ to the launch sequence (or draw, or scrap)"
    assert f"<@{scene.id('bob')}> {waits}" in board
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_failure_on_our_side_is_apologised_for_once(scene, caplog):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    version = table.version

    async def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    bot.service.commands.act = broken
    by_command = await scene.cmd("draw", "ann")
    by_button = await scene.click(scene.board(), "draw", "ann")
    await bot_state(lambda: not handling(bot))
    for interaction in (by_command, by_button):
        assert interaction.ephemeral and "went wrong on my side" in text_of(interaction.message)
        assert interaction.followups == []  # one answer, not one per error handler
    assert table.version == version
    failures = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage() for r in failures] == [
        "command draw failed",
        "button 'draw' of game 1 failed",
    ]


def handling(bot) -> bool:
    """Whether discord.py is still running a command or a listener of the bot."""
    return any(
        task.get_name() == "CommandTree-invoker" or task.get_name() == "discord.py: on_interaction"
        for task in asyncio.all_tasks()
    )


EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


@pytest.mark.scene(names=("ann", "eve"))
async def test_board_reposts_are_limited(scene):
    await scene.new_game("ann")
    posted = await scene.cmd("board", "eve")
    assert not posted.ephemeral
    before = len(scene.public())
    for _ in range(5):
        again = await scene.cmd("board", "eve")
        assert again.ephemeral and "posted a moment ago" in content(again)
        assert f"/{posted.message.id})" in content(again)  # a link to it
    assert len(scene.public()) == before


@pytest.mark.scene(names=("ann", "eve"))
async def test_a_board_posted_again_while_an_edit_was_under_way_is_the_one_kept_up(scene):
    """Eve's /board posts the board below while the edit of the one above, with its
    picture, is slow to reach Discord: the edit is followed by the new board drawn again,
    and later moves edit that one, never asking Discord to keep the old one's picture."""
    table = await scene.new_game("ann")
    stall = scene.fake.stall_next(EDIT_ORIGINAL)
    await scene.cmd("draw", "ann")
    await asyncio.wait_for(stall.reached.wait(), 5)
    posted = await scene.cmd("board", "eve")
    stall.release()
    await scene.bot.outbox.drain()
    await scene.cmd("draw", "ann")
    await scene.bot.outbox.drain()
    assert table.messages.board_id == posted.message.id
    assert [r for r in scene.fake.requests if r.status >= 400] == []
    assert scene.board(table) is posted.message
