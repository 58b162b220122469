"""A fake Discord on 127.0.0.1 that the real, unmodified discord.py client talks to.

The fake serves a REST subset and the gateway websocket from one aiohttp app on
a free port. Tests build a world (guilds, channels, members), connect the bot,
then play as users would and read what the bot did::

    async def test_new_game(fake_discord, bot):           # bot: a discord.Client
        guild = fake_discord.add_guild("Apophis Club")
        table = fake_discord.add_text_channel(guild, "table")
        alice = fake_discord.add_member(guild, "alice")
        async with fake_discord.connected(bot):             # login, READY, on_ready
            reply = await fake_discord.invoke("apophis new", user=alice, channel=table,
                                              difficulty="easy")
            await reply.wait_response()
            board = reply.message                           # a Message record
            click = await fake_discord.click(board, "join", user=alice)
            await click.wait_response()
            assert click.response_type == 7                 # the board was edited

A bot run as a separate process is pointed at the fake with
``DISCORD_API_BASE_URL=fake.api_base_url`` (for ``discord.http.Route.BASE``) and
``DISCORD_GATEWAY_URL=fake.gateway_url`` (for ``DiscordWebSocket.DEFAULT_GATEWAY``);
in-process, :meth:`FakeDiscord.connected` (or :meth:`FakeDiscord.patch_discord`) sets
and restores both. The bot must log in with ``fake.bot_token``.

Enforced like Discord, each breach recorded as a :class:`Violation` that fails the
test at teardown (``fake_discord`` fixture) unless claimed with
:meth:`FakeDiscord.expect_violation`:

- every JSON body (and multipart ``payload_json``) validates against Discord's
  OpenAPI description, read from ``../shared/discord-openapi.json`` (when the
  file is absent, this check is skipped with a :class:`SchemaCheckSkipped` warning);
- only implemented routes are called;
- the first response to an interaction comes within ``fake.interaction_deadline``
  seconds (3; else 404, code 10062), exactly once (else 400, code 40060), and the
  interaction token is used for ``fake.token_lifetime`` seconds at most (15 min;
  else 401, code 50027); time is ``fake.now()``, moved on by ``fake.advance_time()``;
- nothing is logged at ERROR by discord.py's loggers.

``forged=True`` on :meth:`FakeDiscord.invoke`, ``click`` and ``select`` sends what a
tampered client could: option values outside the declaration, a server-only command
from a DM, custom ids and select values the message never offered.

Discord's ordinary answers are given without being violations: DMs to a user whose
DMs are closed get 403, code 50007; ``fake.rate_limit_next(route)`` answers the next
matching request with a 429 that discord.py retries.

Build the world before connecting: guilds, channels and members added later are
not announced over the gateway. Messages the bot sends are recorded, not
dispatched back to it as MESSAGE_CREATE events.
"""

from .commands import InvalidInvocation
from .plugin import SchemaCheckSkipped
from .schema import DEFAULT_OPENAPI_PATH, RequestValidator
from .server import FakeDiscord, RequestRecord
from .state import (
    EPHEMERAL,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    User,
    Violation,
    ViolationKind,
)

__all__ = [
    "DEFAULT_OPENAPI_PATH",
    "EPHEMERAL",
    "Channel",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "InvalidInvocation",
    "Member",
    "Message",
    "RequestRecord",
    "RequestValidator",
    "Role",
    "SchemaCheckSkipped",
    "User",
    "Violation",
    "ViolationKind",
]
