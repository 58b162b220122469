"""The fake Discord anywhere on Discord: servers without the bot, group DMs, user installs,
the follow-up cap, token expiry, the Entry Point command and Activity instances."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from devtools.fakediscord import (
    Channel,
    FakeDiscord,
    Interaction,
    InvalidInvocation,
    Member,
    User,
    ViolationKind,
)
from devtools.fakediscord.rest import ENTRY_POINT_REMOVED

pytestmark = pytest.mark.e2e

#: app_permissions where the bot is not (a group DM, a server without it), and in its DM.
ELSEWHERE = discord.Permissions(attach_files=True, embed_links=True, mention_everyone=True)
BOT_DM = discord.Permissions(ELSEWHERE.value | discord.Permissions(use_external_emojis=True).value)
MISSING_ACCESS = (403, 50001)
ENTRY_POINT = 4
LAUNCH_ACTIVITY = 12
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
INSTANCE = "/applications/{application_id}/activity-instances/{instance_id}"


class Board(discord.ui.View):
    """A board anyone who sees it may click: join (edits it), hand (a private answer),
    table (launches the Activity)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} joined")

    @discord.ui.button(label="Hand", custom_id="hand")
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("Your hand", ephemeral=True)

    @discord.ui.button(label="Table", custom_id="table")
    async def table(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.launch_activity()


class Tree(app_commands.CommandTree):
    """Leaves Entry Point interactions (type 4) to on_interaction, as the notes advise."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return (interaction.data or {}).get("type") != ENTRY_POINT


class PlatformBot(discord.Client):
    """Global commands installable to servers and users, usable everywhere or not."""

    __test__ = False

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = Tree(self)
        #: The status and code of each follow-up /spam tried (200 for a sent one).
        self.followups: list[tuple[int, int]] = []
        #: Set when /spam is done.
        self.spammed = asyncio.Event()
        #: What each LAUNCH_ACTIVITY answer said: the instance id.
        self.launched: asyncio.Queue[str | None] = asyncio.Queue()
        self._add_commands()

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if (interaction.data or {}).get("type") == ENTRY_POINT:
            answer = await interaction.response.launch_activity()
            await self.launched.put(answer.activity_id)

    async def launch_answer(self) -> str | None:
        """The instance id the next LAUNCH_ACTIVITY answer was given."""
        return await asyncio.wait_for(self.launched.get(), 5)

    def _add_commands(self) -> None:
        def everywhere(function: Any) -> Any:
            """Installable to servers and users, offered in servers, DMs and group DMs."""
            installs = app_commands.allowed_installs(guilds=True, users=True)
            contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
            return installs(contexts(function))

        @self.tree.command(name="play", description="Post a board")
        @everywhere
        async def play(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Board", view=Board())

        @self.tree.command(name="spam", description="Six follow-ups")
        @everywhere
        async def spam(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Here they come")
            for number in range(6):
                try:
                    await interaction.followup.send(f"follow-up {number}")
                except discord.HTTPException as error:
                    self.followups.append((error.status, error.code))
                else:
                    self.followups.append((200, 0))
            self.spammed.set()

        @self.tree.command(name="table", description="Open the Activity")
        @everywhere
        async def table(interaction: discord.Interaction) -> None:
            answer = await interaction.response.launch_activity()
            await self.launched.put(answer.activity_id)

        @self.tree.command(name="server", description="A server's command")
        @app_commands.allowed_installs(guilds=True, users=False)
        @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
        async def server(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("server")

        @self.tree.command(name="mine", description="Mine alone")
        @app_commands.allowed_installs(guilds=False, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def mine(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("mine", ephemeral=True)


@dataclass
class World:
    """A server with the bot, one without it, a group DM, and the people in them."""

    club: Channel  # a server with the bot
    elsewhere: Channel  # a server that never installed the bot
    group: Channel  # a group DM of ann and bob
    ann: User
    bob: User
    cat: Member  # in both servers, in no group DM

    def member(self, fake: FakeDiscord, channel: Channel, user: User) -> Member:
        return fake.world.guild(channel.guild_id).members[user.id]


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    club = fake_discord.add_guild("Club")
    other = fake_discord.add_guild("Elsewhere", bot_member=False)
    ann = fake_discord.add_member(club, "ann").user
    bob = fake_discord.add_member(club, "bob").user
    cat = fake_discord.add_member(club, "cat")
    for user in (ann, bob, cat.user):
        fake_discord.add_member(other, user.name, user_id=user.id)
    return World(
        club=fake_discord.add_text_channel(club, "table"),
        elsewhere=fake_discord.add_text_channel(other, "general"),
        group=fake_discord.add_group_dm(ann, bob, name="friends"),
        ann=ann,
        bob=bob,
        cat=cat,
    )


@pytest.fixture
async def bot(fake_discord: FakeDiscord, world: World) -> AsyncIterator[PlatformBot]:
    client = PlatformBot()
    async with fake_discord.connected(client):
        yield client


def sent(fake: FakeDiscord, interaction: Interaction) -> dict[str, Any]:
    """The INTERACTION_CREATE payload the bot got for an interaction."""
    assert fake.gateway.session is not None
    for frame in fake.gateway.session.sent:
        if frame["t"] == "INTERACTION_CREATE" and frame["d"]["id"] == str(interaction.id):
            return frame["d"]
    raise AssertionError(f"interaction {interaction.id} was not sent")


async def bot_request(bot: PlatformBot, method: str, path: str, **ids: Any) -> tuple[int, int]:
    """A bot-token request: (200, 0), or the HTTP status and Discord code it failed with."""
    body = {"content": "hi"} if method == "POST" else None
    try:
        await bot.http.request(discord.http.Route(method, path, **ids), json=body)
    except discord.HTTPException as error:
        return error.status, error.code
    return 200, 0


async def test_a_server_without_the_bot_is_reached_by_interactions_only(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    channel = world.elsewhere
    guild_id = channel.guild_id
    # Never announced: the bot is not a member and knows nothing of it.
    assert bot.get_guild(guild_id) is None
    assert bot.get_guild(world.club.guild_id) is not None
    assert fake_discord.world.bot.id not in fake_discord.world.guild(guild_id).members
    # Its bot-token routes are refused whatever they are.
    board = await fake_discord.invoke("play", user=world.ann, channel=world.club)
    message_id = (await board.wait_reply()).id
    ids = {"channel_id": channel.id, "message_id": message_id}
    for method, path in (
        ("POST", "/channels/{channel_id}/messages"),
        ("GET", "/channels/{channel_id}"),
        ("GET", "/channels/{channel_id}/messages/{message_id}"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
    ):
        assert await bot_request(bot, method, path, **ids) == MISSING_ACCESS, path
    member = "/guilds/{guild_id}/members/{user_id}"
    assert await bot_request(bot, "GET", member, guild_id=guild_id, user_id=world.ann.id) == (
        MISSING_ACCESS
    )
    with pytest.raises(discord.Forbidden):
        await bot.http.start_thread_with_message(
            channel.id, message_id, name="t", auto_archive_duration=60
        )
    # A member who did not install the app has no command there; one who did has.
    with pytest.raises(InvalidInvocation, match="installs that apply in a server are none"):
        await fake_discord.invoke("play", user=world.bob, channel=channel)
    fake_discord.install_for_user(world.ann)
    played = await fake_discord.invoke("play", user=world.ann, channel=channel)
    reply = await played.wait_reply()
    payload = sent(fake_discord, played)
    assert payload["guild_id"] == str(guild_id) and payload["context"] == 0
    assert payload["member"]["user"]["id"] == str(world.ann.id) and "user" not in payload
    assert payload["authorizing_integration_owners"] == {"1": str(world.ann.id)}
    assert int(payload["app_permissions"]) == ELSEWHERE.value
    assert fake_discord.messages(channel) == [reply]
    # Anyone who sees the channel clicks the board, installed or not.
    joined = await fake_discord.click(reply, "join", user=world.bob)
    await joined.wait_response()
    assert reply.content == "bob joined"
    assert sent(fake_discord, joined)["authorizing_integration_owners"] == {"1": str(world.ann.id)}
    # The server installs the commands alone: a guild install, and still no bot there.
    fake_discord.install_commands(guild_id)
    theirs = await fake_discord.invoke("play", user=world.bob, channel=channel)
    await theirs.wait_reply()
    assert sent(fake_discord, theirs)["authorizing_integration_owners"] == {"0": str(guild_id)}
    assert int(sent(fake_discord, theirs)["app_permissions"]) == ELSEWHERE.value
    assert bot.get_guild(guild_id) is None
    assert fake_discord.world.bot.id not in fake_discord.world.guild(guild_id).members


async def test_a_group_dm_has_no_bot_and_its_people_share_the_board(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    group = world.group
    assert group.type == 3 and fake_discord.world.bot not in group.recipients
    fake_discord.install_for_user(world.ann)
    played = await fake_discord.invoke("play", user=world.ann, channel=group)
    board = await played.wait_reply()
    payload = sent(fake_discord, played)
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(world.ann.id) and payload["context"] == 2
    assert payload["channel"]["type"] == 3 and payload["channel"]["name"] == "friends"
    assert {u["id"] for u in payload["channel"]["recipients"]} == {
        str(world.ann.id),
        str(world.bob.id),
    }
    assert payload["authorizing_integration_owners"] == {"1": str(world.ann.id)}
    assert int(payload["app_permissions"]) == ELSEWHERE.value
    # The bot's token cannot post or read there.
    for method, path in (
        ("POST", "/channels/{channel_id}/messages"),
        ("GET", "/channels/{channel_id}"),
    ):
        assert await bot_request(bot, method, path, channel_id=group.id) == MISSING_ACCESS
    # Bob did not install the app: no command for him, yet he clicks the board.
    with pytest.raises(InvalidInvocation, match="needs the app installed"):
        await fake_discord.invoke("play", user=world.bob, channel=group)
    hand = await fake_discord.click(board, "hand", user=world.bob)
    private = await hand.wait_reply()
    assert private.ephemeral and private.visible_to == world.bob.id
    assert fake_discord.messages(group, seen_by=world.bob) == [board, private]
    assert fake_discord.messages(group, seen_by=world.ann) == [board]
    assert sent(fake_discord, hand)["authorizing_integration_owners"] == {"1": str(world.ann.id)}
    # Cat is not in the group DM: she sees nothing there to click or invoke.
    with pytest.raises(InvalidInvocation, match="cannot see"):
        await fake_discord.click(board, "join", user=world.cat)
    fake_discord.install_for_user(world.cat)
    with pytest.raises(InvalidInvocation, match="not a recipient"):
        await fake_discord.invoke("play", user=world.cat, channel=group)


async def test_commands_follow_their_installs_and_contexts(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    ann, club = world.ann, world.club

    async def owners(command: str, channel: Channel) -> dict[str, str]:
        interaction = await fake_discord.invoke(command, user=ann, channel=channel)
        await interaction.wait_response()
        return sent(fake_discord, interaction)["authorizing_integration_owners"]

    # Not installed by ann: what the server's install allows, in the server and the bot's DM.
    assert await owners("play", club) == {"0": str(club.guild_id)}
    assert await owners("server", club) == {"0": str(club.guild_id)}
    dm = fake_discord.world.dm_channel(ann)
    assert await owners("play", dm) == {"0": "0"}
    with pytest.raises(InvalidInvocation, match="server-only"):
        await fake_discord.invoke("server", user=ann, channel=dm)
    with pytest.raises(InvalidInvocation, match=r"needs the app installed by \[1\]"):
        await fake_discord.invoke("mine", user=ann, channel=club)
    # Installed: the user's key joins in where the command works through it.
    fake_discord.install_for_user(ann)
    assert await owners("play", club) == {"0": str(club.guild_id), "1": str(ann.id)}
    assert await owners("server", club) == {"0": str(club.guild_id)}
    assert await owners("mine", club) == {"1": str(ann.id)}
    assert await owners("play", dm) == {"0": "0", "1": str(ann.id)}
    assert await owners("mine", world.group) == {"1": str(ann.id)}
    with pytest.raises(InvalidInvocation, match="not offered in a group DM"):
        await fake_discord.invoke("server", user=ann, channel=world.group)
    # The bot's DM: context 1 and its own app_permissions.
    in_dm = await fake_discord.invoke("play", user=ann, channel=dm)
    await in_dm.wait_response()
    assert sent(fake_discord, in_dm)["context"] == 1
    assert int(sent(fake_discord, in_dm)["app_permissions"]) == BOT_DM.value
    # A click carries the owners of the interaction that made the message.
    made = await fake_discord.invoke("play", user=ann, channel=club)
    board = await made.wait_reply()
    click = await fake_discord.click(board, "join", user=world.cat)
    await click.wait_response()
    assert sent(fake_discord, click)["authorizing_integration_owners"] == {
        "0": str(club.guild_id),
        "1": str(ann.id),
    }
    assert board.payload(fake_discord.url)["interaction_metadata"][
        "authorizing_integration_owners"
    ] == {"0": str(club.guild_id), "1": str(ann.id)}


async def test_a_user_installed_interaction_gets_five_follow_ups(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    fake_discord.install_for_user(world.ann)
    capped = await fake_discord.invoke("spam", user=world.ann, channel=world.group)
    await asyncio.wait_for(bot.spammed.wait(), 5)
    assert bot.followups == [(200, 0)] * 5 + [(400, 40094)]
    assert fake_discord.followups_of(capped) == 5 and len(capped.followups) == 5
    # Where the server's install authorizes it too, there is no cap.
    bot.followups.clear()
    bot.spammed.clear()
    free = await fake_discord.invoke("spam", user=world.ann, channel=world.club)
    await asyncio.wait_for(bot.spammed.wait(), 5)
    assert bot.followups == [(200, 0)] * 6 and fake_discord.followups_of(free) == 6


async def test_a_token_lasts_15_minutes_and_the_first_answer_3_seconds(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    played = await fake_discord.invoke("play", user=world.ann, channel=world.club)
    await played.wait_response()
    original = f"{fake_discord.api_base_url}/webhooks/{fake_discord.world.application_id}/"
    original += f"{played.token}/messages/@original"
    async with aiohttp.ClientSession() as http:
        fake_discord.advance_time(15 * 60 - 1)
        async with http.patch(original, json={"content": "still mine"}) as response:
            assert response.status == 200
        fake_discord.advance_time(2)
        async with http.patch(original, json={"content": "too late"}) as response:
            assert response.status == 401
            assert await response.json() == {"code": 50027, "message": "Invalid Webhook Token"}
        await fake_discord.expect_violation(ViolationKind.EXPIRED_TOKEN)
        assert played.message.content == "still mine"
        # The first answer to an interaction is refused after 3 s.
        bot.tree.interaction_check = _ignore  # type: ignore[method-assign]
        ignored = await fake_discord.invoke("play", user=world.ann, channel=world.club)
        fake_discord.advance_time(3.1)
        callback = fake_discord.api_base_url + CALLBACK.format(
            interaction_id=ignored.id, interaction_token=ignored.token
        )
        async with http.post(callback, json={"type": 4, "data": {"content": "late"}}) as r:
            assert r.status == 404 and (await r.json())["code"] == 10062
        await fake_discord.expect_violation(ViolationKind.LATE_RESPONSE)


async def _ignore(interaction: discord.Interaction) -> bool:
    """A tree that answers nothing."""
    return False


async def test_the_entry_point_command_is_kept_by_bulk_updates_and_launches(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    launch = fake_discord.enable_activities()
    assert (launch["name"], launch["type"], launch["handler"]) == ("launch", 4, 2)
    assert fake_discord.enable_activities() is launch
    # A plain sync leaves it out: refused whole, nothing changed.
    before = list(fake_discord.synced_commands())
    with pytest.raises(discord.HTTPException) as refused:
        await bot.tree.sync()
    assert (refused.value.status, refused.value.code) == (400, 50240)
    assert refused.value.text == ENTRY_POINT_REMOVED
    assert fake_discord.synced_commands() == before
    # Carried through (GET, then PUT the union): kept, with its id.
    app_id = fake_discord.world.application_id
    ours = [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    synced = await bot.http.bulk_upsert_global_commands(app_id, [*ours, launch])
    (kept,) = [command for command in synced if command["type"] == ENTRY_POINT]
    assert kept["id"] == launch["id"] and kept["handler"] == 2
    # One Entry Point per app.
    twice = [*ours, launch, {**launch, "name": "again"}]
    with pytest.raises(discord.HTTPException) as second:
        await bot.http.bulk_upsert_global_commands(app_id, twice)
    assert second.value.status == 400
    # Handler 2: Discord launches the Activity and the bot hears nothing.
    count = len(fake_discord.world.interactions)
    instance = await fake_discord.invoke_entry_point(user=world.ann, channel=world.club)
    assert instance == fake_discord.instance_in(world.club)
    assert len(fake_discord.world.interactions) == count
    # Handler 1: the bot gets the command and answers it with LAUNCH_ACTIVITY (joining).
    app_handler = {**kept, "handler": 1}
    await bot.http.bulk_upsert_global_commands(app_id, [*ours, app_handler])
    opened = await fake_discord.invoke_entry_point(user=world.bob, channel=world.club)
    assert isinstance(opened, Interaction)
    assert opened.data == {"id": kept["id"], "name": "launch", "type": ENTRY_POINT}
    await opened.wait_response()
    assert opened.response_type == LAUNCH_ACTIVITY and opened.activity_instance_id == instance
    assert await bot.launch_answer() == instance
    assert fake_discord.activity_instance(instance).users == [world.ann.id, world.bob.id]
    # Where its contexts or installs do not reach, there is no Launch.
    with pytest.raises(InvalidInvocation):
        await fake_discord.invoke_entry_point(user=world.bob, channel=world.group)


async def test_commands_are_read_with_their_translations_only_when_asked(
    fake_discord: FakeDiscord, bot: PlatformBot
) -> None:
    """GET /applications/{app}/commands leaves out every translation (of a command, its
    options and their choices) unless asked ``with_localizations=true``, as Discord does;
    a command sent back as read without them loses them."""
    app_id = fake_discord.world.application_id
    french = {"fr": "Lancer"}
    choice = {"name": "one", "value": 1, "name_localizations": {"fr": "un"}}
    option = {"type": 4, "name": "n", "description": "n", "description_localizations": french}
    command = {"name": "go", "description": "Go", "description_localizations": french}
    launch = {**fake_discord.enable_activities(), "description_localizations": french}
    sent = [{**command, "options": [{**option, "choices": [choice]}]}, launch]
    await bot.http.bulk_upsert_global_commands(app_id, sent)
    route = discord.http.Route(
        "GET", "/applications/{application_id}/commands", application_id=app_id
    )
    plain = await bot.http.request(route)
    full = await bot.http.request(route, params={"with_localizations": "true"})
    assert "localizations" not in str(plain)
    read = {c["name"]: c for c in full}
    assert read["go"]["description_localizations"] == french
    assert read["go"]["options"][0]["description_localizations"] == french
    assert read["go"]["options"][0]["choices"][0]["name_localizations"] == {"fr": "un"}
    assert read["launch"]["description_localizations"] == french
    await bot.http.bulk_upsert_global_commands(app_id, plain)
    assert all("description_localizations" not in c for c in fake_discord.synced_commands())


async def test_launch_activity_answers_a_command_or_a_click_with_the_instance(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    validator = fake_discord.validator
    table = await fake_discord.invoke("table", user=world.ann, channel=world.club)
    await table.wait_response()
    instance = fake_discord.instance_in(world.club)
    assert table.response_type == LAUNCH_ACTIVITY and table.activity_instance_id == instance
    assert table.message is None and await bot.launch_answer() == instance
    # A click on a board joins the instance running in the channel.
    board = await (
        await fake_discord.invoke("play", user=world.ann, channel=world.club)
    ).wait_reply()
    click = await fake_discord.click(board, "table", user=world.cat)
    await click.wait_response()
    assert click.activity_instance_id == instance and click.message is None
    assert fake_discord.activity_instance(instance).users == [world.ann.id, world.cat.user.id]
    # The answer's shape, with and without with_response.
    bot.tree.interaction_check = _ignore  # type: ignore[method-assign]
    async with aiohttp.ClientSession() as http:
        for query, status in (("?with_response=true", 200), ("", 204)):
            quiet = await fake_discord.invoke("table", user=world.bob, channel=world.club)
            url = fake_discord.api_base_url + CALLBACK.format(
                interaction_id=quiet.id, interaction_token=quiet.token
            )
            async with http.post(url + query, json={"type": LAUNCH_ACTIVITY}) as response:
                assert response.status == status
                if status == 200:
                    body = await response.json()
        assert body["interaction"]["activity_instance_id"] == instance
        assert body["resource"] == {"type": 12, "activity_instance": {"id": instance}}
        assert validator.validate_response("POST", CALLBACK, body) is None


async def test_activity_instances_are_read_with_the_bot_token_until_everyone_left(
    fake_discord: FakeDiscord, world: World, bot: PlatformBot
) -> None:
    validator = fake_discord.validator
    app_id = fake_discord.world.application_id

    async def read(instance_id: str) -> tuple[int, dict[str, Any]]:
        route = discord.http.Route("GET", INSTANCE, application_id=app_id, instance_id=instance_id)
        try:
            return 200, await bot.http.request(route)
        except discord.NotFound as error:
            return error.status, {"code": error.code}

    in_club = fake_discord.launch_activity(world.club, world.ann)
    status, body = await read(in_club)
    assert status == 200 and validator.validate_response("GET", INSTANCE, body) is None
    assert body["application_id"] == str(app_id) and body["instance_id"] == in_club
    assert body["location"] == {
        "id": f"gc-{world.club.guild_id}-{world.club.id}",
        "kind": "gc",
        "channel_id": str(world.club.id),
        "guild_id": str(world.club.guild_id),
    }
    assert body["users"] == [str(world.ann.id)]
    in_group = fake_discord.launch_activity(world.group, world.ann, world.bob)
    status, body = await read(in_group)
    assert status == 200 and validator.validate_response("GET", INSTANCE, body) is None
    assert body["location"]["kind"] == "pc" and "guild_id" not in body["location"]
    assert body["users"] == [str(world.ann.id), str(world.bob.id)]
    # Joining and leaving; the last one out ends it, and the next launch is a new one.
    fake_discord.join_instance(in_club, world.bob)
    assert (await read(in_club))[1]["users"] == [str(world.ann.id), str(world.bob.id)]
    first_launch = body["launch_id"]
    fake_discord.leave_instance(in_group, world.ann)
    fake_discord.leave_instance(in_group, world.bob)
    assert fake_discord.instance_in(world.group) is None
    assert await read(in_group) == (404, {"code": 10002})
    again = fake_discord.launch_activity(world.group, world.bob)
    assert again != in_group and (await read(again))[1]["launch_id"] != first_launch
    # Someone who cannot see the channel launches nothing there.
    with pytest.raises(InvalidInvocation, match="cannot see"):
        fake_discord.launch_activity(world.group, world.cat)
    # The route wants the bot's token.
    url = fake_discord.api_base_url + INSTANCE.format(application_id=app_id, instance_id=again)
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 401


def test_a_group_dm_payload_fits_the_openapi_description(fake_discord: FakeDiscord) -> None:
    if not fake_discord.validator.available:
        pytest.skip(fake_discord.validator.skip_reason)
    group = fake_discord.add_group_dm(fake_discord.add_user("ann"), fake_discord.add_user("bob"))
    schema = "PrivateGroupChannelResponse"
    assert fake_discord.validator.validate_schema(schema, group.payload()) is None
