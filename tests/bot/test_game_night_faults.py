"""Game night's faults (issue #34, items 10, 11 and 17): Play again into a channel that
refuses the bot, a game whose thread a moderator locked, and a crash as a game moves to
its thread. Each guarantee is checked through the fake Discord, the bot killed where it
matters."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.lobby_settings import LobbySettings
from bot.store.store import Store
from bot.table import Table
from tests.bot.helpers import Scene, bot_state, button_id, content, start_bot_process, text_of
from tests.bot.test_threads import scene_with_admin, start_in_thread

pytestmark = pytest.mark.e2e

SORRY = "something went wrong"


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------- 11. a thread a moderator locked


async def test_a_locked_threads_game_goes_on_by_panels_and_its_result_reaches_the_channel(
    fake_discord, make_bot, caplog
):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    parent = scene.channel
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        thread = await start_in_thread(scene, "ann", "bob")
        scene.channel = thread
        table = scene.live()
        scene.arrange(hands=[["2C"], ["3C"]])  # ann draws two, and it is bob's turn
        board = scene.board()
        await fake_discord.set_thread(thread, archived=True, locked=True)  # a moderator
        # Ann's Draw on the board is played, and she is told what she drew, not that
        # something went wrong (which would have her play a second move).
        drew = await scene.click(board, "draw", "ann")
        assert table.version == 1
        assert drew.ephemeral and "You drew" in text_of(drew.message), drew.response_data
        assert SORRY not in text_of(drew.message)
        assert (await bot.store.get_game(table.id)).version == 1
        # The game goes on by the players' panels.
        hand = await scene.click(board, "hand", "bob")
        assert hand.ephemeral and "Your hand" in text_of(hand.message)
        table.deadline = bot.service.now() - 1  # the clock runs out as bob plays on
        moved = await scene.press(hand.message, "draw", "bob")
        assert moved.response_type == 7 and SORRY not in text_of(moved.message)
        assert not table.open and table.game.outcome.value == "lost"
        # Its result reaches the channel all the same.
        await fake_discord.wait_for(
            lambda: [m for m in scene.public(parent) if m.content.startswith("🏁")]
        )
        await bot.outbox.drain()
        result = scene.public(parent)[-1]
        assert result.content == (
            f"🏁 Game #{table.id} in <#{thread.id}>: time ran out and Apophis hit Earth."
        )
        assert thread.archived and thread.locked
    assert not errors(caplog)


async def test_a_thread_archived_but_not_locked_is_opened_again_by_the_boards_next_edit(
    fake_discord, make_bot, caplog
):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        thread = await start_in_thread(scene, "ann", "bob")
        table = bot.service.by_channel[thread.id]
        board = scene.board(table)
        await fake_discord.set_thread(thread, archived=True)  # a moderator, without locking
        for interaction in fake_discord.world.interactions.values():
            fake_discord.expire_token(interaction)  # no token left: the channel route edits
        bot.outbox.board_outdated(table)
        bot.outbox.flush(table)
        await bot.outbox.drain()
        assert not thread.archived and scene.board(table) is board  # edited in place
        edits = fake_discord.requests_to("PATCH /channels/{channel_id}/messages/{message_id}")
        assert [r.status for r in edits] == [400, 200]  # refused while archived, then made
    assert not errors(caplog)


# ---------------------------------- 10. Play again into a channel that refuses the bot


async def finished_in_thread(scene: Scene) -> Table:
    """A game of ann and bob played in its thread, lost as its clock ran out: its table,
    once its result is in the channel and its thread archived."""
    thread = await start_in_thread(scene, "ann", "bob")
    table = scene.bot.service.by_channel[thread.id]
    table.deadline = scene.bot.service.now() - 1  # the clock runs out as ann plays on
    await scene.cmd("draw", "ann", channel=thread)
    await scene.bot.outbox.drain()
    assert not table.open and thread.archived
    return table


async def test_play_again_into_a_channel_that_refuses_the_bot_opens_nothing_and_says_why(
    fake_discord, make_bot, caplog
):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    parent = scene.channel
    send = discord.Permissions(send_messages=True).value
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        table = await finished_in_thread(scene)
        final = scene.board(table)
        # The bot may post in the thread (Send Messages in Threads) but not in its channel.
        await fake_discord.set_permissions(parent, fake_discord.world.bot, deny=send)
        await bot_state(lambda: bot.outbox.access.lacking_in(scene.guild.id, parent.id))
        refused = await scene.click(final, "again", "bob")
        assert refused.ephemeral and content(refused) == (
            f"🔁 The new lobby would open in <#{parent.id}>, but I am missing **Send "
            "Messages** and **Embed Links** there, so none was opened. Once a moderator grants "
            "me these "
            "permissions in that channel, press **Play again** again."
        )
        assert not refused.followups  # no "something went wrong" after it
        assert parent.id not in bot.service.by_channel
        assert await bot.store.active_game_in_channel(parent.id) is None
        # Nothing was saved: once the bot may post there, Play again works.
        await fake_discord.set_permissions(parent, fake_discord.world.bot)
        await bot_state(lambda: not bot.outbox.access.lacking_in(scene.guild.id, parent.id))
        again = await scene.click(final, "again", "bob")
        new = bot.service.by_channel[parent.id]
        (lobby,) = [m for m in scene.public(parent) if "Invited back" in text_of(m)]
        assert new.messages.board_id == lobby.id  # posted before bob is told where it is
        assert again.ephemeral and content(again) == (
            f"🔁 The new lobby is in <#{parent.id}>: join it there."
        )
        joined = await scene.click(lobby, "join", "ann")
        assert joined.response_type == 7 and new.seats == [scene.id("ann"), scene.id("bob")]
    assert not errors(caplog)


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


POST = "POST /channels/{channel_id}/messages"
EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


async def held_up(fake, route: str, path_end: str = "") -> None:
    """Wait until the bot's request to `route` (its path ending with `path_end`) was
    answered 429 (rate_limit_next): the bot waits a minute before it tries again."""
    await fake.wait_for(
        lambda: [
            r for r in fake.requests_to(route) if r.status == 429 and r.path.endswith(path_end)
        ]
    )


async def killed(process) -> None:
    process.kill()  # SIGKILL: no clean shutdown, nothing sent that was waiting
    await process.wait()


async def test_a_lobby_saved_as_the_bot_was_killed_is_posted_when_it_is_back(
    fake_discord, make_bot, database
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    scene = scene_with_admin(fake_discord, None)
    parent = scene.channel
    process = await start_bot_process(fake_discord, database)
    try:
        await scene.cmd("apophis config", "boss", threads=True)
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.cmd("apophis join", "bob")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        thread = fake_discord.thread_of(lobby)
        await scene.cmd("apophis end", "ann", channel=thread)
        await fake_discord.wait_for(
            lambda: [m for m in scene.public(parent) if m.content.startswith("🏁")]
        )
        (final,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public(thread) if ":again" in str(m.components)]
        )
        # Play again pressed in the thread: the lobby is saved, and its post in the
        # channel held up by Discord when the bot is killed.
        parent_posts = f"/channels/{parent.id}/messages"  # no other post may take it
        fake_discord.rate_limit_next(POST, retry_after=60, path=parent_posts)
        await fake_discord.click(final, button_id(final, "again"), user=scene["bob"])
        await held_up(fake_discord, POST, f"/channels/{parent.id}/messages")
    finally:
        await killed(process)
    store = await Store.open(database)
    try:
        record = await store.active_game_in_channel(parent.id)
    finally:
        await store.close()
    assert record.status == "lobby" and record.board_message_id is None

    bot = make_bot()
    scene.bot = bot
    async with fake_discord.connected(bot):
        (posted,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public(parent) if "Invited back" in text_of(m)]
        )
        table = scene.live(parent)
        assert table.id == record.id
        await bot_state(lambda: table.messages.board_id == posted.id)  # the lobby's board
        joined = await scene.click(posted, "join", "ann")
        assert joined.response_type == 7 and table.seats == [scene.id("ann"), scene.id("bob")]


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


# ---------------------------------------- 17. killed as a game moves to its thread


async def test_a_game_killed_as_it_moved_to_its_thread_has_its_lobby_point_there_after(
    fake_discord, make_bot, database
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    scene = scene_with_admin(fake_discord, None)
    parent = scene.channel
    process = await start_bot_process(fake_discord, database)
    try:
        await scene.cmd("apophis config", "boss", threads=True)
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.cmd("apophis join", "bob")
        await fake_discord.wait_for(lambda: str(scene.id("bob")) in text_of(lobby))
        # The start moves the game to its thread; the lobby message's edit into the line
        # pointing there is held up by Discord when the bot is killed.
        fake_discord.rate_limit_next(EDIT_ORIGINAL, retry_after=60)
        start = await scene.cmd("apophis start", "ann", first=scene["ann"])
        thread = fake_discord.thread_of(lobby)
        assert thread is not None and f"<#{thread.id}>" in content(start)
        await held_up(fake_discord, EDIT_ORIGINAL)
    finally:
        await killed(process)
    assert button_id(lobby, "join") and button_id(lobby, "start")  # live buttons, still

    bot = make_bot()
    scene.bot = bot
    async with fake_discord.connected(bot):
        await fake_discord.wait_for(lambda: not lobby.components)
        assert (
            lobby.content
            == f"🧵 Game #{scene.live(thread).id} is played in its thread: <#{thread.id}>"
        )
        assert scene.live(thread).parent_id == parent.id  # the game plays on in its thread
        await fake_discord.wait_for(
            lambda: [m for m in scene.public(thread) if "back after a restart" in m.content]
        )
        assert parent.id not in bot.service.by_channel
