"""Channels the bot may not use: one it may not post in (or attach files to), one deleted.

Item 5: after a restart, or once no interaction token is usable, a channel that refuses
the bot (403) is noted once, its players are told, and nothing meant for it is lost: the
board and the notices catch up through the next player's interaction, or by themselves
once the permission is back. Item 9: a game or lobby whose channel is deleted ends at
once as abandoned (not a loss), at CHANNEL_DELETE or at start-up, and nothing more is
sent there. A lobby Discord refuses to post, or one saved without its message in a channel
that refuses the bot, is closed, and whoever asked for it told why.
"""

from __future__ import annotations

import asyncio
import logging
import time
from types import SimpleNamespace

import discord
import pytest

from bot.discord import access, jobs, pings
from bot.discord.access import blocks
from bot.lobby_settings import LobbySettings
from bot.store.store import Store
from tests.bot.helpers import Scene, bot_state, content, text_of
from tests.bot.test_crewmates import open_lobby_with_crewmates
from tests.bot.test_threads import finished_in_thread, scene_with_admin

pytestmark = pytest.mark.e2e

VIEW_CHANNEL = discord.Permissions(view_channel=True).value
CANNOT_POST = "I cannot post in"


def board_shows(message, table) -> bool:
    """Whether a board message shows the table's current version (its buttons carry it)."""
    return f"apo:b:{table.id}:{table.version}:hand" in str(message.components)


def refused(fake, channel) -> list:
    """The requests to a channel's routes that Discord refused with 403."""
    return [r for r in fake.requests if r.status == 403 and f"/channels/{channel.id}" in r.path]


def told_by_dm(fake, member) -> list:
    return [m for m in fake.dms(member) if CANNOT_POST in m.content]


def log_lines(caplog, level: int, *words: str) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno == level and all(word in record.getMessage() for word in words)
    ]


# ------------------------------------------- 5. a channel the bot may not post in


async def test_after_a_restart_a_channel_the_bot_cannot_see_is_told_once_and_caught_up(
    fake_discord, make_bot, caplog
):
    caplog.set_level(logging.INFO)
    fake_discord.gateway.identify_interval = 0  # restarted at once (pacing: test_shards.py)
    first = make_bot()
    scene = Scene(fake_discord, first, names=("ann", "bob"))
    async with fake_discord.connected(first):
        await scene.new_game("ann", "bob", difficulty="beginner")
        await first.outbox.drain()
        old_board = scene.board()
    # While the bot is away, a moderator takes View Channel from it in the game's channel.
    await fake_discord.set_permissions(scene.channel, fake_discord.world.bot, deny=VIEW_CHANNEL)
    second = make_bot()
    scene.bot = second
    async with fake_discord.connected(second):
        table = scene.live()
        # Each player is told by DM, where the bot can write, what it lacks and where.
        for name in ("ann", "bob"):
            (dm,) = await fake_discord.wait_for(
                lambda name=name: told_by_dm(fake_discord, scene[name])
            )
            assert "**View Channel**" in dm.content and f"<#{scene.channel.id}>" in dm.content
        assert table.messages.board_id == old_board.id  # not left empty
        # A click there still works through its token: the board catches up, with the
        # notice that was waiting, and whoever clicked is told privately what is missing.
        await scene.click(old_board, "hand", "ann")
        notice = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )
        await second.outbox.drain()
        assert table.messages.board_id == notice[0].id and board_shows(notice[0], table)
        (note,) = await fake_discord.wait_for(
            lambda: [m for m in scene.private_to("ann") if CANNOT_POST in m.content]
        )
        assert "**View Channel**" in note.content
        # The next move edits it through that player's token.
        await scene.cmd("draw", "ann")
        await second.outbox.drain()
        assert board_shows(scene.board(), table)
        assert [len(told_by_dm(fake_discord, scene[n])) for n in ("ann", "bob")] == [1, 1]
        assert len([m for m in scene.private_to("ann") if CANNOT_POST in m.content]) == 1
    assert len(log_lines(caplog, logging.WARNING, str(scene.channel.id), "View Channel")) == 1
    assert len(refused(fake_discord, scene.channel)) <= 1  # noted once, not retried
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_without_a_token_a_refusing_channel_is_noted_once_and_caught_up_once_allowed(
    fake_discord, make_bot, caplog, monkeypatch
):
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(jobs, "RETRY_DELAYS", (0.01,))  # a job retried is retried at once
    monkeypatch.setattr(pings, "WAIT_BEFORE_PING", 0.5)  # her turn soon waits long enough
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        scene.arrange(hands=[["2C", "3H"], ["4D", "5S"]])
        await scene.cmd("draw", "ann")  # the crewmate's turn: it moves 1 to 3 s later
        await bot.outbox.drain()
        version = table.version
        # Then, as if more than 14 minutes had passed since anyone's last interaction (no
        # token is usable), a moderator takes View Channel from the bot.
        bot.outbox.clock = lambda: time.monotonic() + 15 * 60
        await fake_discord.set_permissions(scene.channel, fake_discord.world.bot, deny=VIEW_CHANNEL)
        ann = scene.id("ann")
        await bot_state(lambda: table.version > version and table.game.active_player == ann)
        (dm,) = await fake_discord.wait_for(lambda: told_by_dm(fake_discord, scene["ann"]))
        assert "**View Channel**" in dm.content and f"<#{scene.channel.id}>" in dm.content
        await asyncio.sleep(0.6)  # her turn waited long enough to ping her
        await bot.outbox.drain()
        assert not board_shows(scene.board(), table)  # behind: it cannot be edited now
        assert not fake_discord.notified(scene["ann"])  # her turn: the ping waits too
        # The permission comes back: the board catches up by itself, nothing lost.
        await fake_discord.set_permissions(scene.channel, fake_discord.world.bot)
        await fake_discord.wait_for(lambda: board_shows(scene.board(), table))
        await fake_discord.wait_for(lambda: fake_discord.notified(scene["ann"]))
        await bot.outbox.drain()
        assert len(told_by_dm(fake_discord, scene["ann"])) == 1
    assert len(log_lines(caplog, logging.WARNING, str(scene.channel.id), "View Channel")) == 1
    assert len(refused(fake_discord, scene.channel)) <= 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_only_what_needs_a_permission_the_bot_lacks_waits():
    assert blocks(("view_channel",), "DELETE", None, upload=False)
    assert blocks(("send_messages",), "POST", {"content": "a notice"}, upload=False)
    assert blocks(("send_messages_in_threads",), "POST", {"content": "in a thread"}, upload=False)
    assert not blocks(("send_messages",), "PATCH", {"content": "its own"}, upload=False)
    assert not blocks(("attach_files",), "POST", {"content": "a notice"}, upload=False)
    assert blocks(("attach_files",), "PATCH", {"embeds": [{"title": "board"}]}, upload=True)
    assert blocks(("embed_links",), "PATCH", {"embeds": [{"title": "board"}]}, upload=False)


# ------------------------------------------------------- 9. a deleted channel


def what_the_channel_holds(fake, channel) -> list:
    return [
        (m.id, m.content, m.edited_at, m.deleted)
        for m in fake.messages(channel, include_deleted=True)
    ]


def sent_to(fake, since: int, *channels) -> list:
    """Requests after the `since`-th to these channels' messages: posts, edits, deletions
    and reads (not the channel itself, which the bot reads to be sure it is gone)."""
    return [
        r
        for r in fake.requests[since:]
        if any(f"/channels/{channel.id}/" in r.path for channel in channels)
    ]


async def assert_counted_as_abandoned(scene: Scene, elsewhere) -> None:
    stats = await scene.cmd("apophis stats", "ann", channel=elsewhere)
    text = text_of(stats.message)
    assert "1 game" in text and "0 lost" in text and "1 abandoned" in text, text


async def test_a_game_and_a_lobby_whose_channels_are_deleted_end_at_once_as_abandoned(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    lobby_room = fake_discord.add_text_channel(scene.guild, "lobby")
    elsewhere = fake_discord.add_text_channel(scene.guild, "lounge")
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", difficulty="beginner")
        await scene.cmd("apophis new", "bob", channel=lobby_room)
        lobby = scene.live(lobby_room)
        await bot.outbox.drain()
        before = (what_the_channel_holds(fake_discord, scene.channel), len(fake_discord.requests))
        await fake_discord.delete_channel(scene.channel)
        await fake_discord.delete_channel(lobby_room)
        await bot_state(lambda: table.status == "abandoned" and lobby.status == "abandoned")
        assert (
            not table.runtime.timers and table.runtime.reshuffle_timer is None
        )  # its countdown stopped
        assert scene.channel.id not in bot.service.by_channel
        assert lobby_room.id not in bot.service.by_channel
        await bot.outbox.drain()
        stored = await bot.store.get_game(table.id)
        assert (stored.status, stored.outcome) == ("abandoned", "abandoned")
        assert (await bot.store.game_log(table.id))[-1].action == {
            "type": "end",
            "reason": "channel_deleted",
        }
        assert (await bot.store.get_game(lobby.id)).status == "abandoned"
        # Nothing more was sent there, through its routes or a token.
        assert what_the_channel_holds(fake_discord, scene.channel) == before[0]
        assert sent_to(fake_discord, before[1], scene.channel, lobby_room) == []
        # The players' hand DMs say the game is over.
        assert "ended" in fake_discord.dms(scene["ann"])[0].content
        await assert_counted_as_abandoned(scene, elsewhere)


async def test_a_game_whose_channel_was_deleted_while_the_bot_was_away_ends_at_start_up(
    fake_discord, make_bot
):
    fake_discord.gateway.identify_interval = 0  # restarted at once (pacing: test_shards.py)
    first = make_bot()
    scene = Scene(fake_discord, first, names=("ann", "bob"))
    lobby_room = fake_discord.add_text_channel(scene.guild, "lobby")
    elsewhere = fake_discord.add_text_channel(scene.guild, "lounge")
    async with fake_discord.connected(first):
        table = await scene.new_game("ann", "bob", difficulty="beginner")
        await scene.cmd("apophis new", "bob", channel=lobby_room)
        lobby_id = scene.live(lobby_room).id
        await first.outbox.drain()
    await fake_discord.delete_channel(scene.channel)  # no bot is connected to be told
    await fake_discord.delete_channel(lobby_room)
    before = (what_the_channel_holds(fake_discord, scene.channel), len(fake_discord.requests))
    second = make_bot()
    scene.bot = second
    async with fake_discord.connected(second):
        await bot_state(lambda: not second.service.tables, timeout=10)
        await second.outbox.drain()
        stored = await second.store.get_game(table.id)
        assert (stored.status, stored.outcome) == ("abandoned", "abandoned")
        assert (await second.store.get_game(lobby_id)).status == "abandoned"
        assert what_the_channel_holds(fake_discord, scene.channel) == before[0]
        assert sent_to(fake_discord, before[1], scene.channel, lobby_room) == []
        await assert_counted_as_abandoned(scene, elsewhere)


# ------------------------------------- a channel without Attach Files (issue 25, item 9)

ATTACH_FILES = discord.Permissions(attach_files=True).value
NO_FILES = "Give me **Attach Files** here"


@pytest.mark.scene(names=("ann", "bob"))
async def test_without_attach_files_the_board_is_in_words_and_the_channel_told_once(
    fake_discord, scene
):
    bot = scene.bot
    await fake_discord.set_permissions(scene.channel, fake_discord.world.bot, deny=ATTACH_FILES)
    table = await scene.new_game("ann", "bob", difficulty="beginner")
    for _ in range(3):
        player = "ann" if table.game.active_player == scene.id("ann") else "bob"
        await scene.cmd("draw", player)
        if table.game.pending:  # over the hand limit: the lowest cards go
            hand = table.game.hands[table.game.players.index(scene.id(player))]
            await scene.cmd("discard", player, cards=" ".join(hand[5:]))
    await bot.outbox.drain()
    board = scene.board(table)
    # The whole table in words, no picture; every request the bot made went through.
    assert board.attachments == [] and "image" not in board.embeds[0]
    assert "Apophis" in [f["name"] for f in board.embeds[0]["fields"]]
    assert not refused(fake_discord, scene.channel)
    told = [m for m in scene.public() if NO_FILES in m.content]
    assert len(told) == 1  # once, however many boards were drawn
    # Given Attach Files back, the next move brings the picture back.
    await fake_discord.set_permissions(scene.channel, fake_discord.world.bot)
    player = "ann" if table.game.active_player == scene.id("ann") else "bob"
    await scene.cmd("draw", player)
    await bot.outbox.drain()
    (picture,) = scene.board(table).attachments
    assert picture.filename.startswith("apophis-strip-")
    assert len([m for m in scene.public() if NO_FILES in m.content]) == 1


def test_what_was_told_of_attach_files_stands_a_while_before_the_gateway_is_read(
    monkeypatch,
):
    """An interaction's word (or a refused upload) on Attach Files stands TOLD_FOR seconds:
    a board drawn meanwhile does not work the permissions out from the roles again."""
    clock = [1000.0]
    monkeypatch.setattr(access, "monotonic", lambda: clock[0])
    gateway = [discord.Permissions(attach_files=False)]
    seen = access.Access(client=None)
    monkeypatch.setattr(seen, "_permissions", lambda table: (gateway[0], False))
    table = SimpleNamespace(channel_id=7)
    assert seen.files(table, True) is None  # allowed, as assumed: no change
    clock[0] += access.TOLD_FOR - 1
    assert seen.files(table) is None  # the interaction's word stands
    clock[0] += 2
    assert seen.files(table) is False  # then the gateway's record is read, and it changed
    assert seen.files(table) is None
    gateway[0] = discord.Permissions(attach_files=True)
    assert seen.files(table, True) is True  # a newer word is heard at once


SORRY = "something went wrong"


async def test_a_lobby_discord_refuses_to_post_is_closed_and_the_presser_told_why(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    parent = scene.channel
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        table = await finished_in_thread(scene)
        # The gateway says the bot may post in the channel; Discord refuses all the same.
        fake_discord.fail_next("POST /channels/{channel_id}/messages", status=403, code=50013)
        refused = await scene.click(scene.board(table), "again", "bob")
        assert refused.ephemeral and content(refused).startswith(
            f"🔁 Discord refused the new lobby's message in <#{parent.id}>, so no lobby was "
            "opened there. I need **View Channel**, **Send Messages** and **Embed Links**"
        )
        assert not refused.followups and SORRY not in content(refused)
        assert parent.id not in bot.service.by_channel
        assert await bot.store.active_game_in_channel(parent.id) is None
        await bot.outbox.drain()
        assert [m.content[:1] for m in scene.public(parent)] == ["🧵", "🏁"]  # nothing shown
        # The channel is free: /apophis new opens a lobby there.
        opened = await scene.cmd("apophis new", "ann")
        assert not opened.ephemeral and scene.live(parent).host_id == scene.id("ann")


async def test_a_lobby_saved_without_its_message_in_a_channel_refusing_the_bot_is_closed(
    fake_discord, make_bot, database
):
    # As the bot left it when killed before its post: a lobby saved, not posted.
    scene = scene_with_admin(fake_discord, None)
    store = await Store.open(database)
    try:
        record = await store.create_lobby(
            scene.guild.id, scene.channel.id, scene.id("ann"), LobbySettings("basic", "easy", 10)
        )
    finally:
        await store.close()
    send = discord.Permissions(send_messages=True).value
    await fake_discord.set_permissions(scene.channel, fake_discord.world.bot, deny=send)
    bot = make_bot()
    scene.bot = bot
    async with fake_discord.connected(bot):
        await bot_state(lambda: scene.channel.id not in bot.service.by_channel)
        assert (await bot.store.get_game(record.id)).status == "abandoned"
        await bot.outbox.drain()
        assert not scene.public()  # nothing was shown of it
        opened = await scene.cmd("apophis new", "bob")  # the channel is free
        assert not opened.ephemeral and scene.live().host_id == scene.id("bob")
