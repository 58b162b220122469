"""The fake Discord's threads, driven through a small real discord.py bot: started from a
message, posted in, archived, their permissions and their gateway events, as on Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

from devtools.fakediscord import Channel, FakeDiscord, InvalidInvocation, Member, RequestValidator
from devtools.fakediscord.routes import ROUTES
from devtools.fakediscord.threads import new_thread

pytestmark = pytest.mark.e2e

perms = discord.Permissions


class ThreadBot(discord.Client):
    """A bot with one command, /where, that says where it was used, and keeps each
    interaction it got."""

    __test__ = False

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Interaction] = []

        @self.tree.command(name="where", description="Where am I?", guild=discord.Object(guild_id))
        async def where(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            await interaction.response.send_message(f"in {interaction.channel_id}")

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(self.guild_id))


@pytest.fixture
def world(fake_discord: FakeDiscord) -> tuple[Channel, Member, Member]:
    guild = fake_discord.add_guild("Threads")
    channel = fake_discord.add_text_channel(guild, "games")
    return (
        channel,
        fake_discord.add_member(guild, "alice"),
        fake_discord.add_member(guild, "mod", roles=[fake_discord.add_role(guild, "mods")]),
    )


@pytest.fixture
async def bot(fake_discord: FakeDiscord, world) -> AsyncIterator[ThreadBot]:
    client = ThreadBot(world[0].guild_id)
    async with fake_discord.connected(client):
        yield client


async def until(condition) -> None:
    """Wait for the bot's own state (from gateway events) to come true."""
    async with asyncio.timeout(5):
        while not condition():
            await asyncio.sleep(0)


def test_the_thread_routes_are_among_the_fakes_routes() -> None:
    keys = {route.key for route in ROUTES}
    assert "POST /channels/{channel_id}/messages/{message_id}/threads" in keys
    assert "PATCH /channels/{channel_id}" in keys  # (both checked against the OpenAPI file)


def test_a_threads_payload_is_what_discord_describes(fake_discord: FakeDiscord, world) -> None:
    validator = RequestValidator.load()
    if not validator.available:
        pytest.skip(validator.skip_reason)
    text, alice, _ = world
    lobby = fake_discord.world.add_message(text, author=alice.user, content="lobby")
    thread = new_thread(text, lobby.id, "Apophis #1", alice.user.id)
    assert validator.validate_schema("ThreadResponse", thread.payload()) is None
    thread.archived = thread.locked = True
    assert validator.validate_schema("ThreadResponse", thread.payload()) is None
    assert validator.validate_schema("ThreadResponse", {"id": "1"}) is not None


async def test_a_thread_started_from_a_message_takes_its_id_and_is_announced(
    fake_discord: FakeDiscord, world, bot: ThreadBot
) -> None:
    channel = bot.get_channel(world[0].id)
    lobby = await channel.send("lobby")
    thread = await lobby.create_thread(name="Apophis #1", auto_archive_duration=1440)
    assert thread.id == lobby.id and thread.parent_id == channel.id
    assert thread.type is discord.ChannelType.public_thread and thread.owner_id == bot.user.id
    await until(lambda: bot.get_guild(channel.guild.id).get_thread(lobby.id) is not None)
    record = fake_discord.thread_of(lobby.id)
    assert record is not None and record.parent_id == channel.id and not record.archived
    posted = await thread.send("board")
    assert [m.content for m in fake_discord.messages(record)] == ["board"]
    assert posted.channel.id == thread.id
    with pytest.raises(discord.HTTPException) as again:
        await lobby.create_thread(name="again")
    assert (again.value.status, again.value.code) == (400, 160004)
    with pytest.raises(discord.HTTPException) as nested:
        await posted.create_thread(name="nested")
    assert (nested.value.status, nested.value.code) == (400, 50024)


async def test_permissions_decide_who_starts_and_who_posts_in_threads(
    fake_discord: FakeDiscord, world, bot: ThreadBot
) -> None:
    text, _, _ = world
    channel = bot.get_channel(text.id)
    me = fake_discord.world.bot
    lobby = await channel.send("lobby")
    await fake_discord.set_permissions(text, me, deny=perms(create_public_threads=True).value)
    with pytest.raises(discord.Forbidden) as refused:
        await lobby.create_thread(name="no")
    assert refused.value.code == 50013
    await fake_discord.set_permissions(text, me, deny=perms(send_messages_in_threads=True).value)
    thread = await lobby.create_thread(name="yes")
    with pytest.raises(discord.Forbidden) as mute:
        await thread.send("hello")
    assert mute.value.code == 50013
    await channel.send("the channel still takes messages")
    # Send Messages in Threads, not Send Messages, is what counts in a thread.
    await fake_discord.set_permissions(text, me, deny=perms(send_messages=True).value)
    await thread.send("hello", embed=discord.Embed(title="with an embed"))
    (said,) = fake_discord.messages(thread.id)
    assert said.embeds and said.embeds[0]["title"] == "with an embed"
    with pytest.raises(discord.Forbidden):
        await channel.send("not in the channel now")


async def test_an_interaction_from_a_thread_names_the_thread(
    fake_discord: FakeDiscord, world, bot: ThreadBot
) -> None:
    text, alice, _ = world
    lobby = await bot.get_channel(text.id).send("lobby")
    thread = await lobby.create_thread(name="game")
    await until(lambda: bot.get_guild(text.guild_id).get_thread(thread.id) is not None)
    reply = await (await fake_discord.invoke("where", user=alice, channel=thread.id)).wait_reply()
    assert reply.channel_id == thread.id and reply.content == f"in {thread.id}"
    (seen,) = bot.seen
    assert isinstance(seen.channel, discord.Thread) and seen.channel.parent_id == text.id
    assert seen.app_permissions.send_messages_in_threads and seen.app_permissions.embed_links


async def test_an_archived_thread_refuses_edits_and_a_new_message_unarchives_it(
    fake_discord: FakeDiscord, world, bot: ThreadBot
) -> None:
    text, alice, _ = world
    guild = bot.get_guild(text.guild_id)
    lobby = await bot.get_channel(text.id).send("lobby")
    thread = await lobby.create_thread(name="game")
    board = await thread.send("board")
    old = await thread.send("old")
    await until(lambda: guild.get_thread(thread.id) is not None)
    await thread.edit(archived=True)  # the creator may archive it
    record = fake_discord.thread_of(lobby.id)
    assert record.archived
    await until(lambda: guild.get_thread(thread.id) is None)  # THREAD_UPDATE: archived
    with pytest.raises(discord.HTTPException) as frozen:
        await board.edit(content="edited")
    assert (frozen.value.status, frozen.value.code) == (400, 50083)
    with pytest.raises(discord.HTTPException) as twice:
        await thread.edit(archived=True)
    assert twice.value.code == 50083
    await old.delete()  # deletions are allowed
    with pytest.raises(InvalidInvocation, match="archived"):
        await fake_discord.invoke("where", user=alice, channel=record)
    await thread.send("back")  # a new message unarchives it
    assert not record.archived
    await until(lambda: guild.get_thread(thread.id) is not None)
    await board.edit(content="edited")
    # Locked and archived by a moderator: the bot, without Manage Threads, may neither post
    # there nor unarchive it.
    await fake_discord.set_thread(record, archived=True, locked=True)
    with pytest.raises(discord.HTTPException) as locked:
        await thread.send("hello?")
    assert locked.value.code == 50083 and record.archived
    with pytest.raises(discord.Forbidden):
        await thread.edit(archived=False)
    await fake_discord.set_thread(record, locked=False)
    await thread.edit(archived=False)  # the bot may unarchive an unlocked thread
    assert not record.archived


async def test_a_thread_someone_else_started_is_theirs_to_archive(
    fake_discord: FakeDiscord, world, bot: ThreadBot
) -> None:
    text, alice, _ = world
    said = await fake_discord.say(text, alice, "let us talk")
    record = await fake_discord.start_thread(said, "talk", by=alice)
    guild = bot.get_guild(text.guild_id)
    await until(lambda: guild.get_thread(record.id) is not None)
    thread = guild.get_thread(record.id)
    assert thread.owner_id == alice.user.id
    await thread.send("the bot may post")
    with pytest.raises(discord.Forbidden):
        await thread.edit(archived=True)
    moderators = fake_discord.world.guild(text.guild_id).role_named("mods")
    moderators.permissions = perms(manage_threads=True).value
    fake_discord.world.guild(text.guild_id).members[bot.user.id].role_ids.append(moderators.id)
    await thread.edit(archived=True, locked=True)
    assert record.archived and record.locked


async def test_active_threads_come_with_the_guild_and_deleted_ones_are_gone(
    fake_discord: FakeDiscord, world
) -> None:
    text, alice, _ = world
    first = await fake_discord.start_thread(await fake_discord.say(text, alice, "a"), "a", by=alice)
    second = await fake_discord.start_thread(
        await fake_discord.say(text, alice, "b"), "b", by=alice
    )
    await fake_discord.set_thread(second, archived=True)
    client = ThreadBot(text.guild_id)
    async with fake_discord.connected(client):
        guild = client.get_guild(text.guild_id)
        assert [t.id for t in guild.threads] == [first.id]  # the active ones only
        assert (await client.fetch_channel(second.id)).archived  # the others, on demand
        await fake_discord.delete_channel(first)
        await until(lambda: guild.get_thread(first.id) is None)
        with pytest.raises(discord.NotFound) as gone:
            await client.http.send_message(first.id, params=_text("hello"))
        assert gone.value.code == 10003
        await fake_discord.delete_channel(text)  # its threads go with it
        await until(lambda: client.get_channel(text.id) is None)
        with pytest.raises(discord.NotFound):
            await client.fetch_channel(second.id)


def _text(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)
