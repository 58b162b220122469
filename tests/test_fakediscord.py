"""The fake Discord's own tests, driven through a small real discord.py bot."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import discord
import pytest
from discord import app_commands

from devtools.fakediscord import (
    DEFAULT_OPENAPI_PATH,
    EPHEMERAL,
    Channel,
    FakeDiscord,
    InvalidInvocation,
    Member,
    RequestValidator,
    SchemaCheckSkipped,
    ViolationKind,
)
from devtools.fakediscord.commands import check_usable_in_dms
from devtools.fakediscord.plugin import warn_if_schema_check_skipped
from devtools.fakediscord.routes import ROUTES

pytestmark = pytest.mark.e2e


class BoardView(discord.ui.View):
    """A button and a select that edit the message they are on."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} joined")

    @discord.ui.select(
        custom_id="colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue", "green")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {', '.join(select.values)}")


class TooLongLabelView(discord.ui.View):
    """A button whose label breaks Discord's 80-character limit."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(label="x" * 81, custom_id="too-long"))


class TestBot(discord.Client):
    """A tiny bot with the command shapes a game bot uses."""

    __test__ = False

    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.release = asyncio.Event()
        #: Set once the test has moved the fake's time past the "slow" command's deadline.
        self.late = asyncio.Event()
        self._add_commands()

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(self.guild_id))

    def _add_commands(self) -> None:
        guild = discord.Object(self.guild_id)
        game = app_commands.Group(
            name="apophis", description="Play Apophis", guild_ids=[self.guild_id]
        )

        @game.command(name="new", description="Start a game")
        @app_commands.choices(
            difficulty=[
                app_commands.Choice(name="Easy", value="easy"),
                app_commands.Choice(name="Hard", value="hard"),
            ]
        )
        async def new(
            interaction: discord.Interaction,
            difficulty: app_commands.Choice[str],
            minutes: app_commands.Range[int, 1, 60] = 10,
        ) -> None:
            await interaction.response.send_message(
                f"New {difficulty.value} game, {minutes} min", view=BoardView()
            )

        self.tree.add_command(game)

        @self.tree.command(name="hand", description="Show your hand", guild=guild)
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "Your hand: 3 cards", ephemeral=True, view=BoardView()
            )

        @self.tree.command(name="remind", description="DM a player", guild=guild)
        async def remind(interaction: discord.Interaction, player: discord.Member) -> None:
            try:
                await player.send("Your turn!")
            except discord.Forbidden as error:
                await interaction.response.send_message(
                    f"Cannot DM {player.name} (code {error.code})", ephemeral=True
                )
            else:
                await interaction.response.send_message("Reminded.", ephemeral=True)

        @self.tree.command(name="announce", description="Post in the channel", guild=guild)
        async def announce(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            board = discord.File(io.BytesIO(b"rocket"), filename="board.txt")
            post = await interaction.channel.send(
                "Launch!", file=board, embed=discord.Embed(title="Rocket", description="3 sections")
            )
            await post.edit(content="Launched!")
            await interaction.followup.send("Posted.", ephemeral=True)

        @self.tree.command(name="slow", description="Answers too late", guild=guild)
        async def slow(interaction: discord.Interaction) -> None:
            await self.late.wait()
            await interaction.response.send_message("Sorry I'm late")

        @self.tree.command(name="later", description="Defers, then follows up", guild=guild)
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await self.release.wait()
            await interaction.followup.send("Done at last")

        @self.tree.command(name="badbutton", description="Sends an invalid button", guild=guild)
        async def badbutton(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("Look!", view=TooLongLabelView())
            except discord.HTTPException as error:
                await interaction.response.send_message(f"Refused: {error.code}", ephemeral=True)


@dataclass
class Table:
    """The world the tests play in."""

    channel: Channel
    alice: Member
    bob: Member


@pytest.fixture
def table(fake_discord: FakeDiscord) -> Table:
    guild = fake_discord.add_guild("Apophis Club")
    fake_discord.add_role(
        guild, "Host", permissions=discord.Permissions(manage_channels=True).value
    )
    channel = fake_discord.add_text_channel(guild, "launch-pad")
    alice = fake_discord.add_member(guild, "alice", roles=["Host"])
    bob = fake_discord.add_member(guild, "bob")
    return Table(channel, alice, bob)


@pytest.fixture
async def bot(fake_discord: FakeDiscord, table: Table) -> AsyncIterator[TestBot]:
    client = TestBot(table.channel.guild_id)
    async with fake_discord.connected(client):
        yield client


async def test_bot_connects_and_syncs_commands(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    assert bot.is_ready()
    guild = bot.get_guild(table.channel.guild_id)
    assert guild is not None and guild.chunked
    assert {m.name for m in guild.members} == {"alice", "bob", bot.user.name}
    assert guild.get_member(table.alice.user.id).guild_permissions.manage_channels
    synced = {c["name"] for c in fake_discord.synced_commands(guild.id)}
    assert synced == {"apophis", "hand", "remind", "announce", "slow", "later", "badbutton"}
    fetched = await bot.tree.fetch_commands(guild=guild)
    assert {c.name for c in fetched} == synced
    assert fake_discord.gateway.identify_count == 1
    assert {m.name for m in await guild.chunk()} == {"alice", "bob", bot.user.name}
    assert [m.name for m in await guild.query_members("al")] == ["alice"]


async def test_ephemeral_reply_is_shown_to_the_invoking_user_only(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    reply = await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await reply.wait_response()
    assert reply.response_type == 4
    assert reply.response_data["flags"] & EPHEMERAL
    assert reply.ephemeral and reply.message.ephemeral
    assert reply.message.content == "Your hand: 3 cards"
    assert reply.message.visible_to == table.alice.user.id
    assert fake_discord.messages(table.channel, seen_by=table.alice) == [reply.message]
    assert fake_discord.messages(table.channel, seen_by=table.bob) == []

    click = await fake_discord.click(reply.message, "join", user=table.alice)
    await click.wait_response()
    assert click.message is reply.message
    assert reply.message.content == "alice joined" and reply.message.ephemeral


async def test_subcommand_with_choices_and_a_button_and_select_round_trip(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    new = await fake_discord.invoke(
        "apophis new", user=table.alice, channel=table.channel, difficulty="hard", minutes=8
    )
    await new.wait_response()
    board = new.message
    assert board.content == "New hard game, 8 min"
    assert not board.ephemeral
    assert [c["custom_id"] for row in board.components for c in row["components"]] == [
        "join",
        "colour",
    ]

    click = await fake_discord.click(board, "join", user=table.bob)
    await click.wait_response()
    assert click.response_type == 7
    assert click.message is board
    assert board.content == "bob joined"
    assert [version.content for version in board.history] == ["New hard game, 8 min"]

    choice = await fake_discord.select(board, "colour", ["blue"], user=table.alice)
    await choice.wait_response()
    assert choice.response_type == 7
    assert board.content == "picked blue"
    assert len(board.history) == 2
    assert fake_discord.messages(table.channel) == [board]


async def test_impossible_invocations_raise(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    def invoke(command: str, **options: object) -> object:
        return fake_discord.invoke(command, user=table.alice, channel=table.channel, **options)

    with pytest.raises(InvalidInvocation, match="unknown command /nonsense"):
        await invoke("nonsense")
    with pytest.raises(InvalidInvocation, match="must be one of"):
        await invoke("apophis new", difficulty="impossible")
    with pytest.raises(InvalidInvocation, match=r"within \[1, 60\]"):
        await invoke("apophis new", difficulty="easy", minutes=61)
    with pytest.raises(InvalidInvocation, match="no option"):
        await invoke("hand", cards=3)
    with pytest.raises(InvalidInvocation, match="needs a subcommand"):
        await invoke("apophis")
    with pytest.raises(InvalidInvocation, match="needs option"):
        await invoke("apophis new")

    new = await invoke("apophis new", difficulty="easy")
    await new.wait_response()
    with pytest.raises(InvalidInvocation, match="no component with custom_id 'launch'"):
        await fake_discord.click(new.message, "launch", user=table.bob)
    with pytest.raises(InvalidInvocation, match="offers"):
        await fake_discord.select(new.message, "colour", ["purple"], user=table.bob)
    hand = await invoke("hand")
    await hand.wait_response()
    with pytest.raises(InvalidInvocation, match="cannot see"):
        await fake_discord.click(hand.message, "join", user=table.bob)

    # A tampered client sends them anyway.
    forged = await fake_discord.select(new.message, "launch", ["x"], user=table.bob, forged=True)
    assert forged.data == {"custom_id": "launch", "component_type": 3, "values": ["x"]}
    forged = await fake_discord.click(new.message, "9" * 200, user=table.bob, forged=True)
    assert forged.data == {"custom_id": "9" * 200, "component_type": 2}


async def test_a_click_is_sent_only_for_a_component_on_the_message_as_it_is_now(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    new = await fake_discord.invoke(
        "apophis new", user=table.alice, channel=table.channel, difficulty="easy"
    )
    await new.wait_response()
    board = new.message
    announced = await fake_discord.invoke("announce", user=table.alice, channel=table.channel)
    await announced.wait_reply()
    (post,) = [m for m in fake_discord.messages(table.channel) if m.content == "Launched!"]

    # A custom id of another message is not sent from this one...
    with pytest.raises(InvalidInvocation, match="no component with custom_id 'join'"):
        await fake_discord.click(post, "join", user=table.bob)
    # ...nor one this message had before an edit took its buttons off.
    await bot.get_channel(table.channel.id).get_partial_message(board.id).edit(view=None)
    assert not board.components and "'join'" in str(board.history[-1].components)
    with pytest.raises(InvalidInvocation, match="no component with custom_id 'join'"):
        await fake_discord.click(board, "join", user=table.bob)
    with pytest.raises(InvalidInvocation, match="no component with custom_id 'colour'"):
        await fake_discord.select(board, "colour", ["red"], user=table.bob)

    # A tampered client sends it anyway, with the message as it is now.
    seen: list[discord.Message | None] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction.message)

    bot.on_interaction = on_interaction  # type: ignore[method-assign]
    forged = await fake_discord.click(board, "join", user=table.bob, forged=True)
    assert forged.data == {"custom_id": "join", "component_type": 2}
    await fake_discord.wait_for(lambda: seen)
    assert seen[0] is not None and seen[0].id == board.id and not seen[0].components


async def test_responses_name_who_interacted_and_forged_clicks_reach_any_message(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    hand = await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await hand.wait_response()
    metadata = hand.message.payload(fake_discord.url)["interaction_metadata"]
    assert metadata["id"] == str(hand.id) and metadata["type"] == 2
    assert metadata["user"]["id"] == str(table.alice.user.id)
    announced = await fake_discord.invoke("announce", user=table.bob, channel=table.channel)
    reply = await announced.wait_reply()  # deferred, then filled by its follow-up
    metadata = reply.payload(fake_discord.url)["interaction_metadata"]
    assert metadata["user"]["id"] == str(table.bob.user.id)
    (post,) = [m for m in fake_discord.messages(table.channel) if m.content == "Launched!"]
    assert "interaction_metadata" not in post.payload(fake_discord.url)  # a channel post

    # Bob cannot click alice's ephemeral hand; a tampered client can send the click, and
    # the bot reads whose message it is.
    with pytest.raises(InvalidInvocation, match="cannot see"):
        await fake_discord.click(hand.message, "join", user=table.bob)
    seen: list[discord.Message | None] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction.message)

    bot.on_interaction = on_interaction  # type: ignore[method-assign]
    forged = await fake_discord.click(hand.message, "join", user=table.bob, forged=True)
    await forged.wait_response()
    (message,) = seen
    assert message is not None and message.flags.ephemeral
    assert message.interaction_metadata is not None
    assert message.interaction_metadata.user.id == table.alice.user.id
    assert message.interaction_metadata.type is discord.InteractionType.application_command
    # A dismissed message is gone, even for a tampered client.
    fake_discord.dismiss(hand.message)
    with pytest.raises(InvalidInvocation, match="cannot see"):
        await fake_discord.click(hand.message, "join", user=table.bob, forged=True)


def test_server_only_commands_are_not_offered_in_dms() -> None:
    check_usable_in_dms({"name": "any"})  # Discord's default: global commands work in DMs
    check_usable_in_dms({"name": "any", "contexts": [0, 1], "dm_permission": False})
    for command in ({"name": "any", "contexts": [0]}, {"name": "any", "dm_permission": False}):
        with pytest.raises(InvalidInvocation, match="server-only"):
            check_usable_in_dms(command)


async def test_dm_is_delivered_and_a_closed_dm_raises_50007_in_the_bot(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    reminded = await fake_discord.invoke(
        "remind", user=table.alice, channel=table.channel, player=table.bob
    )
    await reminded.wait_response()
    assert reminded.message.content == "Reminded."
    assert [dm.content for dm in fake_discord.dms(table.bob)] == ["Your turn!"]

    fake_discord.set_dms_open(table.bob, False)
    refused = await fake_discord.invoke(
        "remind", user=table.alice, channel=table.channel, player=table.bob
    )
    await refused.wait_response()
    assert refused.message.content == "Cannot DM bob (code 50007)"
    assert refused.ephemeral
    assert len(fake_discord.dms(table.bob)) == 1
    dm_opens = fake_discord.requests_to("POST /users/@me/channels")
    assert [r.status for r in dm_opens] == [200]  # discord.py caches the DM channel


async def test_bot_survives_a_forced_reconnect_by_resuming(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    before = await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await before.wait_response()

    await fake_discord.force_reconnect()
    assert fake_discord.gateway.reconnect_count == 1
    assert fake_discord.gateway.resume_count == 1
    assert fake_discord.gateway.identify_count == 1

    after = await fake_discord.invoke("hand", user=table.bob, channel=table.channel)
    await after.wait_response()
    assert after.message.visible_to == table.bob.user.id


async def test_events_sent_while_the_bot_reconnects_are_replayed_on_resume(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    await fake_discord.gateway.request_reconnect()
    during = await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await during.wait_response()
    assert fake_discord.gateway.resume_count == 1


async def test_a_429_is_retried_by_discord_py_and_the_message_arrives(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    fake_discord.rate_limit_next("POST /channels/{channel_id}/messages", retry_after=0.05)
    announced = await fake_discord.invoke("announce", user=table.alice, channel=table.channel)
    posted = await announced.wait_reply()
    assert posted.content == "Posted." and posted.ephemeral

    (launch,) = fake_discord.messages(table.channel, seen_by=table.bob)
    assert launch.content == "Launched!"
    assert [version.content for version in launch.history] == ["Launch!"]
    assert [embed["title"] for embed in launch.embeds] == ["Rocket"]
    assert [(a.filename, a.content) for a in launch.attachments] == [("board.txt", b"rocket")]
    sends = fake_discord.requests_to("POST /channels/{channel_id}/messages")
    assert [r.status for r in sends] == [429, 200]
    assert sends[1].at - sends[0].at >= 0.05
    assert all(r.counts_global for r in sends)
    callbacks = fake_discord.requests_to(
        "/interactions/{interaction_id}/{interaction_token}/callback"
    )
    assert callbacks and not any(r.counts_global for r in callbacks)


async def test_a_request_body_breaking_the_openapi_schema_is_a_violation(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    if not fake_discord.validator.available:
        pytest.skip(fake_discord.validator.skip_reason)
    reply = await fake_discord.invoke("badbutton", user=table.alice, channel=table.channel)
    violation = await fake_discord.expect_violation(ViolationKind.SCHEMA)
    assert "label" in violation.message and "too long" in violation.message
    assert "/callback" in violation.request
    await reply.wait_response()
    assert reply.message.content == "Refused: 50035"


async def test_a_reply_after_the_deadline_fails_like_unknown_interaction(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    late = await fake_discord.invoke("slow", user=table.alice, channel=table.channel)
    fake_discord.advance_time(fake_discord.interaction_deadline + 1)  # the bot took too long
    bot.late.set()
    violation = await fake_discord.expect_violation(ViolationKind.LATE_RESPONSE)
    assert "10062" in violation.message
    assert not late.responded
    assert [attempt.status for attempt in late.attempts] == [404]
    logged = await fake_discord.expect_violation(ViolationKind.ERROR_LOG)
    assert "slow" in logged.message
    fake_discord.assert_no_violations()


def test_an_unclaimed_violation_fails_the_test_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from devtools.fakediscord import ViolationKind

        async def test_breaks_a_rule(fake_discord):
            fake_discord.record_violation(ViolationKind.LATE_RESPONSE, "too late")

        async def test_claims_its_violation(fake_discord):
            fake_discord.record_violation(ViolationKind.LATE_RESPONSE, "expected")
            await fake_discord.expect_violation(ViolationKind.LATE_RESPONSE)
        """
    )
    pytester.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
    )
    result = pytester.runpytest_inprocess(
        "-p", "devtools.fakediscord.plugin", "-p", "no:hypothesispytest"
    )
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*the bot broke Discord's rules*", "*late_response: too late*"])


async def test_a_token_used_after_15_minutes_is_refused(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    later = await fake_discord.invoke("later", user=table.alice, channel=table.channel)
    await later.wait_response()
    assert later.response_type == 5 and later.message.loading
    fake_discord.advance_time(fake_discord.token_lifetime + 1)
    bot.release.set()
    expired = await fake_discord.expect_violation(ViolationKind.EXPIRED_TOKEN)
    assert "token" in expired.message
    await fake_discord.expect_violation(ViolationKind.ERROR_LOG)  # the bot did not catch it
    assert later.message.loading and not later.followups


async def test_a_deferred_reply_is_filled_by_the_first_followup(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    later = await fake_discord.invoke("later", user=table.alice, channel=table.channel)
    await later.wait_response()
    bot.release.set()
    reply = await later.wait_reply()
    assert reply is later.message and reply.content == "Done at last"
    assert later.followups == []


async def test_second_initial_response_and_unknown_routes_are_violations(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    hand = await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await hand.wait_response()
    callback = f"{fake_discord.api_base_url}/interactions/{hand.id}/{hand.token}/callback"
    headers = {"Authorization": f"Bot {fake_discord.bot_token}"}
    async with aiohttp.ClientSession() as session:
        async with session.post(callback, json={"type": 4, "data": {"content": "again"}}) as r:
            assert r.status == 400
            assert (await r.json())["code"] == 40060
        async with session.get(f"{fake_discord.api_base_url}/guilds/1/bans", headers=headers) as r:
            assert r.status == 404
    await fake_discord.expect_violation(ViolationKind.DUPLICATE_RESPONSE)
    unknown = await fake_discord.expect_violation(ViolationKind.UNIMPLEMENTED_ROUTE)
    assert "/guilds/1/bans" in unknown.request


def test_rate_limit_patterns_must_name_an_implemented_route(fake_discord: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="names no route"):
        fake_discord.rate_limit_next("POST /channels/{channel_id}/pins")


def test_every_implemented_route_is_in_the_openapi_description() -> None:
    validator = RequestValidator.load()
    if not validator.available:
        pytest.skip(validator.skip_reason)
    missing = [r.key for r in ROUTES if not validator.has_operation(r.method, r.template)]
    assert missing == []


def test_schema_check_is_skipped_with_a_reason_when_the_description_is_absent(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "discord-openapi.json"
    validator = RequestValidator.load(missing)
    assert not validator.available
    assert str(missing) in validator.skip_reason
    assert validator.validate("POST", "/channels/{channel_id}/messages", {"content": 1}) is None
    with pytest.warns(SchemaCheckSkipped, match="not found"):
        warn_if_schema_check_skipped(FakeDiscord(openapi_path=missing))


def test_the_openapi_description_is_found_beside_the_repository() -> None:
    repo_root = Path(__file__).resolve().parents[1]
    assert repo_root.parent / "shared" / "discord-openapi.json" == DEFAULT_OPENAPI_PATH


async def test_an_ephemeral_message_is_reached_only_through_its_token(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    hand = await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await hand.wait_response()
    route = discord.http.Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=table.channel.id,
        message_id=hand.message.id,
    )
    with pytest.raises(discord.NotFound):  # the channel route: Unknown Message
        await bot.http.request(route, json={"content": "edited"})
    webhook = discord.Webhook.partial(fake_discord.world.application_id, hand.token, client=bot)
    await webhook.edit_message(hand.message.id, content="edited")
    assert hand.message.content == "edited"
    fake_discord.dismiss(hand.message)
    with pytest.raises(discord.NotFound):  # dismissed: 404 through the token too
        await webhook.edit_message(hand.message.id, content="again")
    fake_discord.expire_token(hand)
    with pytest.raises(discord.HTTPException) as expired:
        await webhook.send("a follow-up", wait=True)
    assert (expired.value.status, expired.value.code) == (401, 50027)


async def test_mentions_notify_as_allowed_and_content_is_limited(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    alice, bob = table.alice.user.id, table.bob.user.id
    channel = bot.get_channel(table.channel.id)
    text = f"<@{alice}> and <@{bob}>"
    only_bob = await channel.send(
        text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(bob)])
    )
    nobody = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    messages = fake_discord.world.messages
    assert messages[only_bob.id].notified == {bob} and messages[nobody.id].notified == set()
    await only_bob.edit(content=f"<@{alice}>", allowed_mentions=discord.AllowedMentions.all())
    assert fake_discord.notified(table.alice) == []  # an edit notifies nobody
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)
    assert refused.value.code == 50035
    await fake_discord.expect_violation(ViolationKind.CONTENT_TOO_LONG)


async def test_a_route_fails_on_demand_and_users_post_as_message_events(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    seen: list[discord.Message] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    bot.on_message = on_message
    fake_discord.fail_next("POST /channels/{channel_id}/messages", status=503, times=1)
    channel = bot.get_channel(table.channel.id)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("lost in the outage")
    assert (await channel.send("after the outage")).content == "after the outage"
    said = await fake_discord.say(table.channel, table.bob, "hello")
    async with asyncio.timeout(5):  # the bot's own state: each turn of the loop lets it go on
        while not seen:
            await asyncio.sleep(0)
    assert seen[0].id == said.id and seen[0].author.id == table.bob.user.id


async def test_an_embed_image_must_name_an_attachment_of_its_message(
    fake_discord: FakeDiscord,
) -> None:
    guild = fake_discord.add_guild()
    channel = fake_discord.add_text_channel(guild, "uploads")
    url = f"{fake_discord.api_base_url}/channels/{channel.id}/messages"
    headers = {"Authorization": f"Bot {fake_discord.bot_token}"}

    def body(image: str) -> aiohttp.FormData:
        form = aiohttp.FormData()
        payload = {
            "embeds": [{"title": "board", "image": {"url": f"attachment://{image}"}}],
            "attachments": [{"id": 0, "filename": "board.png", "description": "alt text"}],
        }
        form.add_field("payload_json", discord.utils._to_json(payload))
        form.add_field("files[0]", b"\x89PNG", filename="board.png")
        return form

    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, data=body("board.png")) as response:
            assert response.status == 200
            sent = await response.json()
        assert [(a["filename"], a["description"]) for a in sent["attachments"]] == [
            ("board.png", "alt text")
        ]
        assert fake_discord.requests[-1].uploads == 1
        async with session.post(url, data=body("other.png")) as response:
            assert response.status == 200  # Discord accepts it, and shows no image
    violation = await fake_discord.expect_violation(ViolationKind.SCHEMA)
    assert "attachment://other.png" in violation.message


async def test_channel_permissions_decide_the_channel_routes_and_a_deleted_channel_is_gone(
    fake_discord: FakeDiscord, table: Table, bot: TestBot
) -> None:
    perms = discord.Permissions
    guild = bot.get_guild(table.channel.guild_id)
    channel = bot.get_channel(table.channel.id)
    seen: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    async def until(condition) -> None:  # the bot's own state, from gateway events
        async with asyncio.timeout(5):
            while not condition():
                await asyncio.sleep(0)

    bot.on_interaction = on_interaction  # type: ignore[method-assign]
    everyone = fake_discord.world.guild(guild.id).roles[guild.id]
    # Hidden from @everyone, the bot included: Missing Access, whatever the request.
    await fake_discord.set_permissions(table.channel, everyone, deny=perms(view_channel=True).value)
    await until(lambda: not channel.permissions_for(guild.me).view_channel)
    assert channel.overwrites_for(guild.default_role).view_channel is False
    with pytest.raises(discord.Forbidden) as hidden:
        await channel.send("hello")
    assert (hidden.value.status, hidden.value.code, hidden.value.text) == (
        403,
        50001,
        "Missing Access",
    )
    # An interaction there still works through its token, and says what the bot may do.
    hand = await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await hand.wait_response()
    assert hand.message.content == "Your hand: 3 cards"
    assert seen[-1].app_permissions.value == 0
    # The bot's own overwrite lets it in again; @everyone may not attach files.
    await fake_discord.set_permissions(
        table.channel, fake_discord.world.bot, allow=perms(view_channel=True).value
    )
    await fake_discord.set_permissions(
        table.channel,
        everyone,
        deny=perms(view_channel=True, attach_files=True).value,
    )
    await until(lambda: channel.permissions_for(guild.me).view_channel)
    posted = await channel.send("hello")
    assert posted.content == "hello"
    with pytest.raises(discord.Forbidden) as no_files:
        await channel.send("a file", file=discord.File(io.BytesIO(b"x"), filename="x.txt"))
    assert no_files.value.code == 50013 and no_files.value.text == "Missing Permissions"
    await fake_discord.invoke("hand", user=table.alice, channel=table.channel)
    await until(lambda: len(seen) == 2)
    assert seen[-1].app_permissions.view_channel and not seen[-1].app_permissions.attach_files
    # Without Send Messages, no embeds or files either (implicitly), but edits still work.
    await fake_discord.set_permissions(
        table.channel,
        fake_discord.world.bot,
        allow=perms(view_channel=True).value,
        deny=perms(send_messages=True).value,
    )
    await until(lambda: not channel.permissions_for(guild.me).send_messages)
    with pytest.raises(discord.Forbidden) as mute:
        await channel.send("hello again")
    assert mute.value.code == 50013
    assert (await posted.edit(content="edited")).content == "edited"
    # Deleted: the bot is told, and the channel is unknown from now on.
    await fake_discord.delete_channel(table.channel)
    await until(lambda: bot.get_channel(table.channel.id) is None)
    with pytest.raises(discord.NotFound) as gone:
        await posted.edit(content="into the void")
    assert (gone.value.status, gone.value.code) == (404, 10003)
    assert fake_discord.world.messages[posted.id].content == "edited"  # tests still read it
