"""A game where the bot is not a member: a group DM, the app installed to one person's
account, everything through interactions (the fake Discord answers every channel route of
a group DM with 403). One person and a crewmate, then three people: no request to a
channel route, no follow-up over Discord's cap, every click answered in time (the fake
fails the test otherwise), a 15-minute silence handled, and the next click showing how it
ended."""

from __future__ import annotations

import time

import pytest

from bot.game.access import INTERACTIONS
from bot.i18n.catalogs import t
from bot.store.records import DEFAULT_AUTOPILOT_SECONDS
from tests.bot.helpers import Scene, bot_state, text_of, time_passes

pytestmark = pytest.mark.e2e

#: A launch's every die a six, and cards enough for a large red and a medium yellow.
WINNING = {"damage": 2, "dice": [6, 6, 6, 6]}


def channel_routes(fake, channel) -> list:
    """The requests the bot made to the channel's own routes (never possible here)."""
    return [r for r in fake.requests if r.path.startswith(f"/api/v10/channels/{channel.id}")]


def over_the_cap(fake) -> list:
    return [r for r in fake.requests if r.route.startswith("POST /webhooks") and r.status == 400]


async def test_one_person_and_a_crewmate_play_a_whole_game_in_a_group_dm(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"), group_dm=True)
    async with fake_discord.connected(bot):
        await scene.cmd("apophis new", "ann", rules="basic", difficulty="easy")
        lobby = await scene.shown()
        added = await scene.click(lobby, "crewadd", "ann")
        assert added.response_type == 7  # the lobby, updated in the answer
        started = await scene.click(scene.board(), "start", "ann")
        assert started.response_type == 7  # the lobby became the board
        table = scene.live()
        assert table.reach == INTERACTIONS and table.guild_id == 0
        # A stacked table: the rocket stands, Ann holds one card of each suit.
        scene.arrange(
            hands=[["2C", "2H", "2D", "2S", "9C"], ["KS", "QS"]],
            rocket=[("red", 3), ("yellow", 2)],
            active=0,
            **WINNING,
        )
        panel = await scene.panel("ann")  # her hand, privately
        assert panel.ephemeral and "2♠" in text_of(panel) + str(panel.components)
        launched = await scene.press(panel, "launch", "ann")
        assert launched.response_type == 7  # her panel, updated
        await bot_state(lambda: not table.open, timeout=10)
        await bot.outbox.drain()
        assert table.game.outcome.value == "destroyed"
        final = scene.board(table)
        assert "Victory" in text_of(final)  # the board edited through the start's token
        # Play again, from the final board: a new lobby, answered in the group DM.
        again = await scene.click(final, "again", "ann")
        assert again.response_type == 4
        assert scene.live().status == "lobby" and scene.live().reach == INTERACTIONS
        assert not channel_routes(fake_discord, scene.channel)
        assert not over_the_cap(fake_discord)


async def test_three_people_and_a_long_silence_in_a_group_dm(fake_discord, make_bot):
    """Three people start; nobody clicks for a quarter of an hour and the clock runs out:
    the result is stored, and the next click on the board shows how the game ended."""
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"), group_dm=True)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", "cid", rules="basic", difficulty="easy")
        assert sorted(table.seats) == sorted(scene.id(n) for n in ("ann", "bob", "cid"))
        board = scene.board()
        fresh = bot.outbox.channel.fresh
        for name in ("ann", "bob", "cid"):  # each opens their own hand, privately
            opened = await scene.click(board, "hand", name)
            panel = opened.message
            assert panel.ephemeral and panel.visible_to == scene.id(name)
            # (the bot keeps its token just after answering: before time moves on)
            await bot_state(lambda o=opened: table.id in fresh and fresh[table.id].value == o.token)
        # A quarter of an hour of silence: every token dead (for Discord and the bot), and
        # the clock out.
        fake_discord.advance_time(16 * 60)
        bot.outbox.clock = lambda: time.monotonic() + 16 * 60
        table.deadline = bot.service.now() - 1
        bot.service.clocks.arm(table)
        await bot_state(lambda: not table.open, timeout=10)
        record = await bot.store.get_game(table.id)
        assert record.status == "finished" and record.outcome == "lost"
        await bot.outbox.drain()
        # The next click on the board (its old buttons) shows the game's end.
        clicked = await scene.click(board, "hand", "bob")
        assert clicked.response_type == 7, clicked.response_data
        assert "Apophis" in text_of(scene.fake.world.messages[board.id])
        assert not channel_routes(fake_discord, scene.channel)
        assert not over_the_cap(fake_discord)


async def test_a_group_dm_reads_in_the_language_most_of_its_players_speak(fake_discord, make_bot):
    """No server chooses a group DM's language: its lobby and board speak the one most of
    its seated people use, the host's on a tie. Ann (English) opens; Bob (French) joins:
    one each, so Ann's; Cid (French) joins: French for all to read, the board too."""
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"), group_dm=True)
    scene["bob"].user.locale = scene["cid"].user.locale = "fr"
    english, french = t("en", "lobby.title"), t("fr", "lobby.title")
    async with fake_discord.connected(bot):
        await scene.cmd("apophis new", "ann", rules="basic", difficulty="easy")
        assert english in text_of(await scene.shown())
        await scene.click(scene.board(), "join", "bob")
        assert english in text_of(scene.board())
        await scene.click(scene.board(), "join", "cid")
        assert french in text_of(scene.board())
        await scene.click(scene.board(), "start", "ann")
        table = scene.live()
        assert table.language == "fr"
        assert "Apophis arrive <t:" in text_of(scene.board(table))


async def test_a_quiet_player_is_taken_over_where_no_server_can_say_when(
    fake_discord, make_bot, timer
):
    """No server's settings reach a group DM: the autopilot is on there, after its
    default quiet, so a player who went away does not hold the others up."""
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob"), group_dm=True)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", rules="basic", difficulty="easy")
        waited_for = table.game.active_player
        await timer.advance(DEFAULT_AUTOPILOT_SECONDS - 0.1)
        assert waited_for not in table.autopilot
        await timer.advance(0.1)
        assert waited_for in table.autopilot
        await time_passes(timer, lambda: table.game.active_player != waited_for)  # played
        await bot.outbox.drain()  # the board's edit, after the move
        assert "autopilot" in text_of(scene.board()).lower()
