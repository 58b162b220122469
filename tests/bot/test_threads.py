"""A thread per game (/apophis config threads): the game plays in a thread opened from its
lobby message, the lobby's channel gets its result, and the thread is archived at the end;
without the permissions it plays in the channel, the host told why."""

from __future__ import annotations

import discord
import pytest

from bot.discord.pings import WAIT_BEFORE_PING
from bot.i18n.catalogs import t
from bot.table import Table
from bot.views.render import duration
from devtools.fakediscord import Channel
from tests.bot.helpers import (
    Scene,
    bot_state,
    button_id,
    content,
    errors,
    held_up,
    killed,
    start_bot_process,
    text_of,
)

pytestmark = pytest.mark.e2e

ROCKET = ["3H", "4H", "5H", "KS", "QS"]  # a large red section and a medium yellow one
ALL_SUITS = ["2C", "2H", "2D", "2S"]


def scene_with_admin(fake_discord, bot, names=("ann", "bob")) -> Scene:
    """A scene, and "boss", who may change the server's settings (Manage Server)."""
    scene = Scene(fake_discord, bot, names=names)
    manage_guild = discord.Permissions(manage_guild=True).value
    admins = fake_discord.add_role(scene.guild, "admins", permissions=manage_guild)
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    return scene


async def start_in_thread(scene: Scene, *players: str) -> Channel:
    """/apophis new, joins and the host's typed start, in the scene's channel: the game's
    thread, once the board is posted there."""
    lobby = (await scene.cmd("apophis new", players[0])).message
    for name in players[1:]:
        await scene.cmd("apophis join", name)
    start = await scene.cmd("apophis start", players[0], first=scene[players[0]])
    thread = scene.fake.thread_of(lobby)
    assert thread is not None, content(start)
    assert start.ephemeral and f"started in its thread, <#{thread.id}>" in content(start)
    await scene.bot.outbox.drain()
    return thread


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


async def turn(scene: Scene, name: str, command: str, **options) -> None:
    """`name` plays a move by command in the scene's channel (or `channel`): it is taken."""
    table = scene.live(options.get("channel"))
    version = table.version
    reply = await scene.cmd(command, name, **options)
    assert table.version == version + 1, text_of(reply.message)


def reports(scene: Scene) -> list:
    return [m for m in scene.public() if "Launch report" in text_of(m)]


async def test_a_game_plays_in_its_thread_to_the_end_across_a_restart(
    fake_discord, make_bot, timer
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    first = make_bot(timer=timer)
    scene = scene_with_admin(fake_discord, first)
    parent = scene.channel
    async with fake_discord.connected(first):
        await scene.cmd("apophis config", "boss", threads=True)
        thread = await start_in_thread(scene, "ann", "bob")
        table = first.service.by_channel[thread.id]
        assert (table.channel_id, table.parent_id) == (thread.id, parent.id)
        assert thread.name == f"Apophis #{table.id}" and thread.parent_id == parent.id
        assert parent.id not in first.service.by_channel  # free for another lobby
        (lobby,) = scene.public(parent)  # the lobby stays, pointing to the thread
        assert lobby.id == thread.id and not lobby.components
        assert f"<#{thread.id}>" in lobby.content
        assert lobby.embeds[0]["footer"]["text"] == "This lobby is closed."
        scene.channel = thread  # from now on, everyone plays in the thread
        board = scene.board()
        assert board.channel_id == thread.id and "Apophis arrives" in text_of(board)
        panel = await scene.panel("ann")
        assert panel.channel_id == thread.id and "Your turn" in text_of(panel)
        scene.arrange(hands=[ROCKET + ALL_SUITS, ["6C"]], dice=[6, 1])  # a hit, no damage
        await turn(scene, "ann", "build", colour="red", size="large")
        await timer.advance(WAIT_BEFORE_PING)  # bob looks away
        await first.outbox.drain()
        (ping,) = fake_discord.notified(scene["bob"])
        assert ping.channel_id == thread.id
        await turn(scene, "bob", "draw")
        await turn(scene, "ann", "build", colour="yellow", size="medium")
        await turn(scene, "bob", "draw")
        await turn(scene, "ann", "launch", cards=" ".join(ALL_SUITS))
        (report,) = await fake_discord.wait_for(lambda: reports(scene))
        assert report.channel_id == thread.id
        await first.outbox.drain()
        assert scene.public(parent) == [lobby]  # nothing else in the channel
    await fake_discord.set_thread(thread, archived=True)  # (say, Discord's idle timer)
    second = make_bot(timer=timer)  # a planned restart, in the middle of the game
    scene.bot = second
    async with fake_discord.connected(second):
        table = scene.live()
        assert (table.channel_id, table.parent_id) == (thread.id, parent.id)
        (back,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )
        await bot_state(lambda: table.messages.board_id == back.id)
        assert not thread.archived  # the bot's message opened it again
        rocket = [("red", 3), ("yellow", 2)]
        scene.arrange(hands=[ALL_SUITS, []], rocket=rocket, damage=2, dice=[6, 6])
        await turn(scene, "bob", "draw")
        await turn(scene, "ann", "launch", cards=" ".join(ALL_SUITS))
        await second.outbox.drain()
        assert not table.open and table.game.outcome.value == "destroyed"
        assert "Victory" in text_of(scene.board(table))
        # The report told since the restart went with the game (the one from before it
        # is not known after it, as in a channel).
        assert reports(scene) == [report] and not lobby.deleted
        lobby_again, result = scene.public(parent)
        assert lobby_again is lobby and result.content == (
            f"🏁 Game #{table.id} in <#{thread.id}>: Apophis destroyed with "
            f"{duration(table.remaining)} to spare."
        )
        assert thread.archived  # once the final board was shown
        pings = fake_discord.notified(scene["ann"]) + fake_discord.notified(scene["bob"])
        assert pings and {m.channel_id for m in pings} == {thread.id}
        scene.assert_no_cards_in_public()
        scene.assert_no_cards_in_public(parent)


async def test_without_the_permissions_the_game_plays_in_the_channel_and_the_host_is_told(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    threads = discord.Permissions(create_public_threads=True).value
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        await fake_discord.set_permissions(scene.channel, fake_discord.world.bot, deny=threads)
        await scene.cmd("apophis new", "ann")
        await scene.cmd("apophis join", "bob")
        start = await scene.cmd("apophis start", "ann", first=scene["ann"])
        told = text_of(start.message)
        assert "game has started" in told and "Your turn" in told  # the host's panel...
        assert "not in a thread of its own" in told and "**Create Public Threads**" in told
        table = scene.live()  # ...and the game in the channel, as without threads
        assert table.parent_id is None and table.channel_id == scene.channel.id
        await bot.outbox.drain()
        assert scene.board().channel_id == scene.channel.id
        assert not fake_discord.requests_to(
            "POST /channels/{channel_id}/messages/{message_id}/threads"
        )
        drew = await scene.cmd("draw", "ann")  # told once: not again
        assert "thread" not in text_of(drew.message)
        told = [
            m for m in fake_discord.messages(scene.channel) if "thread of its own:" in text_of(m)
        ]
        assert told == [start.message] and start.ephemeral
        await scene.cmd("apophis end", "ann")
        # Discord refuses although the interaction said the bot may: the Start button's
        # clicker is told privately, and the game plays in the channel.
        await fake_discord.set_permissions(scene.channel, fake_discord.world.bot)
        fake_discord.fail_next(
            "POST /channels/{channel_id}/messages/{message_id}/threads", status=403, code=50013
        )
        lobby = (await scene.cmd("apophis new", "bob")).message
        start = await scene.click(lobby, "start", "bob")
        assert start.response_type == 7 and "Apophis arrives" in text_of(lobby)
        (note,) = await start.wait_followups()
        assert note.ephemeral and note.visible_to == scene.id("bob")
        assert "**Create Public Threads** and **Send Messages in Threads**" in note.content
        assert scene.live().parent_id is None and fake_discord.thread_of(lobby) is None


async def test_two_games_at_once_in_two_threads_of_one_channel(fake_discord, make_bot):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot, names=("ann", "bob", "cid"))
    parent = scene.channel
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        first = await start_in_thread(scene, "ann", "cid")
        lobby = (await scene.cmd("apophis new", "bob")).message  # the channel is free
        start = await scene.click(lobby, "start", "bob")  # the lobby's Start button
        assert start.response_type == 7 and not lobby.components
        second = fake_discord.thread_of(lobby)
        assert second is not None and f"<#{second.id}>" in lobby.content
        await bot.outbox.drain()
        one, two = (bot.service.by_channel[thread.id] for thread in (first, second))
        assert one is not two and {one.parent_id, two.parent_id} == {parent.id}
        assert parent.id not in bot.service.by_channel
        for thread, table in ((first, one), (second, two)):  # a board in each thread
            assert scene.board(table).channel_id == thread.id
        # Commands act on the game of the thread they are typed in.
        await turn(scene, "ann", "draw", channel=first)
        assert (one.version, two.version) == (1, 0)
        await turn(scene, "bob", "draw", channel=second)
        assert (one.version, two.version) == (1, 1)
        elsewhere = await scene.cmd("draw", "bob", channel=first)  # not bob's game
        assert content(elsewhere) == "You are not playing in this game." and two.version == 1
        here = await scene.cmd("hand", "ann", channel=parent)  # the channel has no game now
        assert here.ephemeral and content(here) == (
            "There is no Apophis game in this channel itself: its games are played in their "
            f"threads, <#{first.id}>, <#{second.id}>. Open another one here with `/apophis new`."
        )
        # One ends: its result in the channel, its thread archived; the other plays on.
        ended = await scene.cmd("apophis end", "ann", channel=first)
        assert not ended.ephemeral and ended.message.channel_id == first.id
        await bot.outbox.drain()
        assert first.archived and not second.archived and two.open
        assert scene.public(parent)[-1].content == (
            f"🏁 Game #{one.id} in <#{first.id}> ended without a result."
        )
        # A post after the end (as when the clock runs out) reopens the thread: it is
        # archived again, and the channel is not told twice.
        bot.outbox.post(one, "☄️ Late news.")
        bot.outbox.flush(one)
        await bot.outbox.drain()
        assert fake_discord.messages(first)[-1].content == "☄️ Late news." and first.archived
        archived = fake_discord.requests_to("PATCH /channels/{channel_id}")
        assert [r.path.rsplit("/", 1)[1] for r in archived] == [str(first.id)] * 2
        assert [m.content[:1] for m in scene.public(parent)] == ["🧵", "🧵", "🏁"]
        hand = await scene.cmd("hand", "bob", channel=second)
        assert hand.ephemeral and "Your turn" in text_of(hand.message)


async def test_the_threads_option_in_english_and_french(fake_discord, make_bot):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    manage_guild = discord.Permissions(manage_guild=True).value
    french = fake_discord.add_role(scene.guild, "admins fr", permissions=manage_guild)
    scene.members["chef"] = fake_discord.add_member(scene.guild, "chef", roles=[french])
    scene["chef"].user.locale = "fr"
    async with fake_discord.connected(bot):
        synced = fake_discord.synced_commands()  # (globally: no development server here)
        (apophis,) = [c for c in synced if c["name"] == "apophis"]
        (config,) = [o for o in apophis["options"] if o["name"] == "config"]
        (option,) = [o for o in config["options"] if o["name"] == "threads"]
        assert option["type"] == 5 and option["name_localizations"]["fr"] == "fils"
        assert "thread of its own" in option["description"]
        assert "propre fil" in option["description_localizations"]["fr"]
        shown = await scene.cmd("apophis config", "boss")
        assert "Game threads: off" in content(shown)  # off at first
        refused = await scene.cmd("apophis config", "ann", threads=True)
        assert refused.ephemeral and "Manage Server" in content(refused)
        assert not (await bot.store.get_guild_settings(scene.guild.id)).threads
        on = await scene.cmd("apophis config", "boss", threads=True)
        assert on.ephemeral and t("en", "thread.setting.on") in content(on)
        assert (await bot.store.get_guild_settings(scene.guild.id)).threads
        off = await scene.cmd("apophis config", "chef", threads=False)
        assert "Fils de partie\u202f: désactivés" in content(off)
        assert not (await bot.store.get_guild_settings(scene.guild.id)).threads
        # Off: the game plays in the channel, and nobody is told of threads.
        await scene.cmd("apophis new", "ann")
        start = await scene.cmd("apophis start", "ann")
        assert "thread" not in text_of(start.message) and scene.live().parent_id is None


async def test_deleting_the_channel_ends_the_games_of_its_threads(fake_discord, make_bot):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        thread = await start_in_thread(scene, "ann")
        table = bot.service.by_channel[thread.id]
        await fake_discord.delete_channel(scene.channel)  # Discord tells of the channel only
        await bot_state(lambda: not table.open)
        assert table.status == "abandoned" and thread.id not in bot.service.by_channel


async def test_play_again_in_a_games_thread_opens_the_lobby_in_its_channel(fake_discord, make_bot):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    parent = scene.channel
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        thread = await start_in_thread(scene, "ann", "bob")
        scene.channel = thread
        table = scene.live()
        table.deadline = bot.service.now() - 1  # the clock runs out as ann plays on
        await scene.cmd("draw", "ann")
        await bot.outbox.drain()
        assert not table.open and thread.archived
        again = await scene.click(scene.board(table), "again", "bob")
        assert again.ephemeral and f"<#{parent.id}>" in content(again)  # told where
        new = bot.service.by_channel[parent.id]
        assert new.status == "lobby" and new.host_id == scene.id("bob")
        assert new.invited == [scene.id("ann")]
        (lobby,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public(parent) if "Invited back" in text_of(m)]
        )
        await bot_state(lambda: new.messages.board_id == lobby.id)  # the lobby's board
        assert thread.archived  # the thread stays shut
        # Pressed again there, it is stale: the channel has its lobby now.
        stale = await scene.click(scene.board(table), "again", "ann")
        assert stale.ephemeral and len(scene.public(parent)) == 3  # lobby, result, new lobby


SORRY = "something went wrong"


EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


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
        assert hand.ephemeral and "Your turn" in text_of(hand.message)
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
