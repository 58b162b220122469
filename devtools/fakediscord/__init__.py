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
- message content is at most 2,000 characters (else 400, code 50035);
- an embed's ``attachment://name`` image or thumbnail names an attachment of its
  message (Discord would show the embed without it); the files each request
  uploaded are counted in its :class:`RequestRecord` (``uploads``);
- nothing is logged at ERROR by discord.py's loggers.

Like Discord, a click or select choice is sent only for a component that is on the
message now, enabled, with values it offers, on a message the user can see (else
:class:`InvalidInvocation`). ``forged=True`` on :meth:`FakeDiscord.invoke`, ``click``
and ``select`` sends what a tampered client could: option values outside the
declaration, a server-only command from a DM, custom ids and select values the message
never offered, on any message (another user's ephemeral one included). A message sent
as an interaction's response or follow-up carries ``interaction_metadata`` (who
interacted), as on Discord. A LAUNCH_ACTIVITY response (type 12, to a command or a
click) creates no message; the interaction records it (``response_type`` 12, and the
``activity_instance_id`` it launched or joined).

Anywhere on Discord (developers/interactions/receiving-and-responding, resources/application;
../shared/DISCORD-PLATFORM-NOTES.md sections 1-3; what those leave open is marked unverified
where the fake decides it):

- ``add_guild(..., bot_member=False)``: a server that never installed the bot: no
  GUILD_CREATE, the bot is not among its members, and its bot-token routes (messages,
  threads, the channel, its members, its guild commands) answer 403 Missing Access (50001).
  ``add_group_dm(*users, name=None)``: a group DM (``ChannelType.GROUP_DM``, 3), the bot
  never in it (its bot-token routes: 403, 50001); ``messages(channel, seen_by=...)`` as
  anywhere.
- ``install_commands(guild)``: a server without the bot installs the app's commands alone
  (the applications.commands scope): a guild install (``"0"``: the guild's id), the bot
  still no member.
- ``install_for_user(user)``: the app installed to the user's account. :meth:`invoke` offers
  a command where its ``contexts`` (0 server, 1 the bot's DM, 2 group DM; absent: from
  ``dm_permission``) hold the channel's and one of its ``integration_types`` (0 guild, 1
  user; absent: [0]) applies: the guild install in a server with the bot (or its commands)
  and in the bot's DM, the user install wherever that user installed it. The interaction's
  ``authorizing_integration_owners`` names the installs that authorized it (``"0"``: the
  guild's id, "0" in the bot's DM; ``"1"``: the user's id); a click carries those of the
  interaction that made the message, and anyone who sees the channel may click (a member
  with View Channel, a recipient), installed or not. ``context`` says where; in a server
  ``member``, elsewhere ``user``; ``app_permissions`` are the bot's where it is a member,
  else Attach Files, Embed Links and Mention Everyone (plus Use External Emojis in its DM).
- An interaction authorized by the user install alone gets 5 follow-ups; the 6th answers
  400, code 40094 (``fake.followups_of(interaction)`` counts them).
- ``enable_activities()``: the global Entry Point command "launch" (type 4, handler 2)
  appears, as when Activities are enabled in the developer portal. A bulk PUT of the
  global commands must carry a type-4 command (else 400, code 50240, as library threads
  report; undocumented), one at most. ``invoke_entry_point(user=..., channel=...)``: with
  handler 1 the bot gets an APPLICATION_COMMAND whose data is ``{"id", "name", "type": 4}``
  (the :class:`Interaction` is returned); with handler 2 Discord launches the Activity
  alone and the instance id is returned.
- Activity instances (:class:`ActivityInstance`): ``launch_activity(channel, *users)``
  starts one (or joins the one running there; LAUNCH_ACTIVITY does the same for the
  interaction's user), ``join_instance``, ``leave_instance`` (the last one out ends it:
  its id is unknown from then on), ``instance_in(channel)``, ``activity_instance(id)``.
  ``GET /applications/{id}/activity-instances/{instance_id}`` with the bot token answers
  it (location kind "gc" with ``guild_id`` in a server, "pc" in a DM or group DM), or 404
  (code 10002: Discord documents none) once it ended. The callback answers 200 with the
  InteractionCallbackResponse under ``?with_response=true``, else 204.

Discord's ordinary answers are given without being violations: DMs to a user whose
DMs are closed get 403, code 50007; an ephemeral message is unknown to the channel
routes (404, code 10008: only its interaction token reaches it), and once the user
dismissed it (``fake.dismiss(message)``) its token's edits get 404 too;
``fake.expire_token(interaction)`` makes a token answer 401, code 50027; a channel's
routes answer as the bot's permissions there allow (guild, roles, then the channel's
overwrites, set with ``fake.set_permissions(channel, role_or_member, deny=...)``, which
sends CHANNEL_UPDATE): 403, code 50001 (Missing Access) when it cannot view the channel,
403, code 50013 (Missing Permissions) when it lacks what the request needs, while
interaction responses and tokens work whatever the channel allows and interactions carry
``app_permissions`` for their channel; ``fake.delete_channel(channel)`` sends
CHANNEL_DELETE and its routes answer 404, code 10003, from then on;
``fake.rate_limit_next(route)`` answers the next matching request with a 429 that
discord.py retries, and ``fake.fail_next(route, status=503, times=n)`` with an outage.
Each new message records whom its mentions notified (``Message.notified``, as its
``allowed_mentions`` let them; edits and ephemeral messages notify nobody), and
``fake.say(channel, user, text)`` posts as a user, sent to the bot as MESSAGE_CREATE
when it asked for message events.

Public threads work as on Discord (devtools.fakediscord.threads): the bot starts one from
a message (the thread takes the message's id; 403, code 50013, without Create Public
Threads; 400, code 160004, for a second one), posts in it with Send Messages in Threads,
and archives it; an archived thread refuses edits (400, code 50083) and is unarchived by a
new message unless it is locked. Tests start threads as users (``fake.start_thread``),
archive or lock them as moderators (``fake.set_thread``), find a message's thread
(``fake.thread_of``) and act in them like in any channel (interactions there carry the
thread, type 11); the bot gets THREAD_CREATE, THREAD_UPDATE and THREAD_DELETE, and
GUILD_CREATE lists the active threads.

OAuth2 (devtools.fakediscord.oauth), for a web client signed in through Discord:
``fake.oauth.issue_code(user, redirect_uri=None)`` gives a code as the Embedded App SDK's
``authorize`` would, and ``GET fake.url + "/oauth2/authorize?client_id=...&response_type=code
&redirect_uri=...&scope=identify&state=..."`` redirects at once with a code for
``fake.oauth.browser_user``. ``POST {api_base_url}/oauth2/token`` (form-encoded, with
``fake.oauth.client_id`` and ``fake.oauth.client_secret``, default "fake-client-secret")
exchanges a code (single use, 10 minutes) for an access token, and ``GET /users/@me`` with
``Authorization: Bearer <token>`` answers that user, ``locale`` included (``add_member(...,
locale="fr")``); errors are Discord's (400 ``invalid_grant``, 401 ``invalid_client``).

Build the world before connecting: guilds, channels and members added later are
not announced over the gateway. Messages the bot sends are recorded, not
dispatched back to it as MESSAGE_CREATE events.
"""

from .commands import Context, EntryPointHandler, Install, InvalidInvocation
from .oauth import OAuth2
from .plugin import SchemaCheckSkipped
from .schema import DEFAULT_OPENAPI_PATH, RequestValidator
from .server import FakeDiscord, RequestRecord
from .state import (
    EPHEMERAL,
    ActivityInstance,
    Channel,
    ChannelType,
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
    "ActivityInstance",
    "Channel",
    "ChannelType",
    "Context",
    "EntryPointHandler",
    "FakeDiscord",
    "Guild",
    "Install",
    "Interaction",
    "InvalidInvocation",
    "Member",
    "Message",
    "OAuth2",
    "RequestRecord",
    "RequestValidator",
    "Role",
    "SchemaCheckSkipped",
    "User",
    "Violation",
    "ViolationKind",
]
