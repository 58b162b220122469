"""The Discord client: shards, start-up (cogs, command sync, the notices after a restart), errors.

It is one door of the game core (bot.game.core, through bot.discord.door): the core holds
the store, the games and their recovery; the client sends what they cause (the outbox) and
tells each channel whose game came back that the bot is back, once its shard is ready.

The global commands are synced beside the Activity's Entry Point, which also launches the
Activity when used (bot.discord.entry).

Also what Discord tells of games' channels: one deleted (at once, or found gone at
start-up) ends its game, and those of its threads; a change of permissions lets the outbox
post in a channel again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.discord.access import UNKNOWN_CHANNEL, UNKNOWN_INTERACTION
from bot.discord.answers import Refusal, release, send_reason
from bot.discord.clicked import read_clicks_lightly
from bot.discord.entry import is_entry_point, launch, sync_global
from bot.discord.gatekeeper import Gatekeeper
from bot.discord.inputs import command_problem
from bot.discord.outbox import Outbox
from bot.discord.translator import CommandTranslator
from bot.discord.unseen import show_unseen
from bot.errors import UserError
from bot.game.changes import TableChange
from bot.i18n.catalogs import t
from bot.store.database import Turn
from bot.store.records import Shards, StoreBusy, shard_of
from bot.table import Table
from bot.views.render import duration

if TYPE_CHECKING:
    from bot.game.audience import Audience
    from bot.game.core import GameCore
    from bot.game.service import GameService
    from bot.store.store import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.discord.cogs.play",)
#: At shutdown, seconds to send what the outbox still holds (the whole stop takes 4 s at most).
OUTBOX_GRACE = 2.0
#: Discord accepts one IDENTIFY per 5 seconds from a bot (max_concurrency 1), whichever
#: process sends it.
IDENTIFY_SECONDS = 5.0
#: How long a turn to IDENTIFY lasts at most when no READY answers it.
IDENTIFY_TURN_SECONDS = 10.0
#: The meta key of when the bot last identified (or was answered), whichever process.
LAST_IDENTIFY = "last_identify"
#: The advisory lock that takes IDENTIFYs in turn across processes on PostgreSQL (one
#: bucket: shard_id % max_concurrency, and max_concurrency is 1 below 150,000 servers).
IDENTIFY_LOCK = 0x41504F02
COMMANDS_HASH_KEY = "commands_hash"
#: How often discord.py may sweep its rate-limit records (see `sweep_now_and_then`).
RATE_LIMIT_SWEEP_SECONDS = 60.0


def sweep_now_and_then(
    http: discord.http.HTTPClient,
    every: float = RATE_LIMIT_SWEEP_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Let discord.py sweep its rate-limit records at most once every `every` seconds.

    It keeps a record per route and channel, forgets those idle for five minutes, and
    looks for them through all the records each time it adds one (once there are 256).
    A hand DM goes to a channel of its own per player: with thousands of players, each
    new DM channel meant a scan of thousands of records (a quarter of the bot's CPU
    while 10,000 players got their first hands). Sweeping once a minute forgets the
    same records, at most a minute later.
    """
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if sweep is None:  # a discord.py that no longer sweeps this way
        return
    due = clock() + every

    def sweep_if_due() -> None:
        nonlocal due
        now = clock()
        if now >= due:
            due = now + every
            sweep()

    http._try_clear_expired_ratelimits = sweep_if_due  # type: ignore[method-assign]


class Composition(Protocol):
    """What the client is one door of (bot.app.App): its core and its other doors.

    Started when discord.py logs the client in, if nothing started it before (the fake
    Discord's `connected` logs a client in itself), and stopped once the client closed;
    each once only, whoever asks first."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class CheckedCommandTree(app_commands.CommandTree):
    """The slash commands; each is checked on arrival, before its handler runs."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Options as declared, whatever the client claims (bot.discord.inputs). The Entry
        Point is none of the tree's (the client answers it: `ApophisBot.on_interaction`)."""
        if is_entry_point(interaction):
            return False  # else discord.py fails on its type, 4, which it does not know
        bot = cast("ApophisBot", interaction.client)
        bot.audience.seen(interaction)
        bot.gatekeeper.seen(interaction)
        problem = command_problem(interaction)
        if problem is None:
            return True
        try:
            await send_reason(interaction, problem)
        finally:
            release(interaction)
        return False


class ApophisBot(commands.AutoShardedBot):
    """Apophis on Discord. `core` holds the games, `outbox` sends what they cause.

    It runs the shards the configuration names (all, by default, as many as Discord
    recommends), and only their games: recovery, clocks and timers cover those.
    """

    def __init__(self, config: Config, composition: Composition, **options) -> None:
        options.setdefault("shard_count", config.shard_count)
        if config.shard_ids is not None:
            options.setdefault("shard_ids", list(config.shard_ids))
        # Interactions come whatever the intents. Servers and channels, and message events
        # only to count the messages posted below a board (see `count_messages`).
        options.setdefault("intents", discord.Intents(guilds=True, guild_messages=True))
        options.setdefault("max_messages", None)
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("tree_cls", CheckedCommandTree)
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        sweep_now_and_then(self.http)
        self.count_messages()
        read_clicks_lightly(self._connection)
        self.config = config
        self.composition = composition
        #: The game core, once this door started with it (bot.discord.door).
        self.core: GameCore | None = None
        self.outbox: Outbox
        #: Changes heard before the outbox was made (it sends only once logged in); None
        #: once it is.
        self._unheard: list[TableChange] | None = []
        #: Who may do what where, for doors that do not carry Discord's permissions.
        self.gatekeeper = Gatekeeper(self)
        #: shard id -> its turn to IDENTIFY, while READY has not answered it.
        self._identify_turns: dict[int | None, Turn] = {}
        self._closing = False
        #: Games resumed at start-up whose channel is yet to be told the bot is back, and
        #: lobbies saved without their message, yet to be posted (once their shard's servers
        #: are in, so that the bot knows their channels).
        self._returning: list[Table] = []
        self._tasks: set[asyncio.Task] = set()
        #: channel id -> the Activity instance last launched there (the Entry Point or
        #: /apophis table), as Discord named it in its answer: the live table's door can
        #: tell which game an instance is about. Kept in memory: a relaunch names anew.
        self.activity_instances: dict[int, str] = {}

    def count_messages(self) -> None:
        """Message events only bump a count of the messages below a game's board.

        discord.py would build a Message (author, member, mentions...) from every event
        of every channel, and run the prefix-command machinery on it: for a count, a
        dictionary look-up on the raw event does. Other message events are ignored. The
        bot's own messages are counted when it posts them.
        """
        parsers = self._connection.parsers
        mine = self._connection

        def created(data: dict) -> None:
            author = (data.get("author") or {}).get("id")
            if author != str(mine.self_id) and self.core is not None and self.core.serving:
                self.service.message_posted(int(data["channel_id"]), int(data["id"]))

        def ignored(data: dict) -> None:
            return None

        parsers["MESSAGE_CREATE"] = created
        for event in ("MESSAGE_UPDATE", "MESSAGE_DELETE", "MESSAGE_DELETE_BULK"):
            parsers[event] = ignored

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Every event to its listeners, but the gateway's note of each event's type
        before it: nothing here listens to it, and discord.py looked for a handler (by
        an AttributeError) at every event."""
        if event_name != "socket_event_type":
            super().dispatch(event_name, *args, **kwargs)

    @property
    def service(self) -> GameService:
        """The core's game service (bot.game.service)."""
        assert self.core is not None, "the client serves a core once its door started"
        return self.core.service

    @property
    def store(self) -> Store:
        assert self.core is not None, "the client serves a core once its door started"
        return self.core.store

    @property
    def audience(self) -> Audience:
        assert self.core is not None, "the client serves a core once its door started"
        return self.core.audience

    def heard(self, change: TableChange) -> None:
        """A change on the core's stream, for the outbox (kept until it is made)."""
        if self._unheard is not None:
            self._unheard.append(change)
        else:
            self.outbox.heard(change)

    def backlog(self) -> tuple[int, float]:
        """The outbox's jobs waiting, and the age of the oldest (bot.serve_metrics)."""
        return (0, 0.0) if self._unheard is not None else self.outbox.jobs.backlog()

    async def setup_hook(self) -> None:
        """Logged in: the core started (and the other doors), then the outbox, the cogs and
        the commands. Each channel whose game came back is told how much time is left once
        its shard is ready (`on_shard_ready`), and what the bot left half done when it
        stopped is finished then."""
        await self.composition.start()
        assert self.core is not None, "the composition starts this door with its core"
        self.outbox = Outbox(
            self,
            self.core.store,
            self.core.audience,
            rate=self.config.global_rate,
            gone=lambda channel_id: self._spawn(self.channel_deleted(channel_id)),
            clock=time.monotonic if self.core.timer is None else self.core.timer.now,
        )
        unheard, self._unheard = self._unheard or [], None
        for change in unheard:
            self.outbox.heard(change)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tree.set_translator(CommandTranslator())
        self.tree.error(self.on_app_command_error)
        await self.sync_commands()
        tables = self.core.recovered
        # Games in play, and lobbies saved without their message (posted then, or closed).
        unseen = [t for t in tables if t.status == "lobby" and t.messages.board_id is None]
        self._returning = [t for t in tables if t.status == "active"] + unseen

    async def on_shard_ready(self, shard_id: int) -> None:
        """A shard's servers and channels are in: its games whose channel is gone end (as
        abandoned), the channels of the others are told the bot is back.

        What the bot left half done when it stopped is finished: a lobby saved without its
        message is posted (or closed unseen, if the bot may not post in its channel), and
        the lobby message of a game that moved to its thread becomes the line pointing to
        the thread (it may still show the lobby's buttons)."""
        count = self.shard_count or 1
        ours = [t for t in self.service.tables.values() if shard_of(t.guild_id, count) == shard_id]
        for table in ours:
            if await self._channel_is_gone(table):
                await self.channel_deleted(table.channel_id)
        waiting = self._returning
        self._returning = [t for t in waiting if shard_of(t.guild_id, count) != shard_id]
        for table in waiting:
            if not table.open or shard_of(table.guild_id, count) != shard_id:
                continue
            if table.status == "lobby":
                await self._show_unseen(table)
                continue
            if table.parent_id is not None:
                self.outbox.moved(table, lobby_shown=False)
            self.outbox.fresh_board(table, self._back_notice(table))

    async def _show_unseen(self, table: Table) -> None:
        """A lobby saved without its message (the bot stopped in between): posted or closed."""
        try:
            await show_unseen(self, self.outbox, self.service, table)
        except Exception:
            log.exception("game %d: its lobby, saved without its message, was left as is", table.id)

    def _back_notice(self, table: Table) -> Callable[[], str]:
        def notice() -> str:  # worded when sent: the time left then
            left = table.time_left(self.service.now()) or 0
            return t(table.language, "notice.back", left=duration(left))

        return notice

    async def _channel_is_gone(self, table: Table) -> bool:
        """Whether a game's channel was deleted: not among the channels the gateway sent for
        its server, and Discord says so (a thread the gateway did not send, archived say,
        is still there)."""
        guild = self.get_guild(table.guild_id)
        if guild is None or guild.unavailable:
            return False  # an outage: its channels are unknown, not gone
        if guild.get_channel_or_thread(table.channel_id) is not None:
            return False
        try:
            await self.fetch_channel(table.channel_id)
        except discord.NotFound as exc:
            return exc.code == UNKNOWN_CHANNEL
        except discord.HTTPException:
            return False
        return False

    async def channel_deleted(self, channel_id: int) -> None:
        """A channel was deleted: nothing more is sent there, and its lobby or game ends."""
        if channel_id not in self.service.by_channel:
            return  # no game there (what an ended one still sends gets Unknown Channel)
        self.outbox.channel_gone(channel_id)
        table = await self.service.channel_gone(channel_id)
        if table is not None:
            log.info("game %d ended: its channel %d was deleted", table.id, channel_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.channel_deleted(channel.id)
        threads = [g.channel_id for g in self.service.tables.values() if g.parent_id == channel.id]
        for thread in threads:  # its threads went with it
            await self.channel_deleted(thread)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.channel_deleted(payload.thread_id)

    async def on_guild_channel_update(self, before, after: discord.abc.GuildChannel) -> None:
        self.outbox.permissions_changed(after.guild.id)

    async def on_guild_role_update(self, before, after: discord.Role) -> None:
        self.outbox.permissions_changed(after.guild.id)

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        self.outbox.permissions_changed(role.guild.id)

    async def on_member_update(self, before, after: discord.Member) -> None:
        if self.user is not None and after.id == self.user.id:  # the bot's own roles
            self.outbox.permissions_changed(after.guild.id)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """One IDENTIFY every 5 seconds for the whole bot, as Discord requires.

        Processes sharing a PostgreSQL database take turns through an advisory lock;
        in its turn a process waits until 5 seconds after the last IDENTIFY of any
        process (a time kept in the database, so that a process killed in its turn
        cannot make the next one too early), notes the time, and identifies. Its turn
        ends with the READY that answers (noted too: Discord counts from when it
        received the IDENTIFY, surely before). Alone on SQLite, the shards of this
        process wait 5 seconds each (discord.py's own way).
        """
        turn = await self.store.take_turn(IDENTIFY_LOCK)
        if turn is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        turn.end_in(IDENTIFY_TURN_SECONDS)
        self._identify_turns[shard_id] = turn
        last = await self.store.get_meta(LAST_IDENTIFY) or 0.0
        await asyncio.sleep(max(last + IDENTIFY_SECONDS - time.time(), 0.0))
        await self.store.set_meta(LAST_IDENTIFY, time.time())

    async def on_shard_connect(self, shard_id: int) -> None:
        """READY answered a shard's IDENTIFY: the next may come 5 seconds from now."""
        turn = self._identify_turns.pop(shard_id, None)
        if turn is not None:
            await self.store.set_meta(LAST_IDENTIFY, time.time())
            turn.end_in(0)

    async def on_ready(self) -> None:
        if self.config.shard_ids is None and self.shard_count:
            self.service.shards = Shards(tuple(range(self.shard_count)), self.shard_count)
        log.info(
            "ready: logged in as %s (%s), in %d servers, shards %s",
            self.user,
            self.user and self.user.id,
            len(self.guilds),
            self.service.shards,
        )

    async def sync_commands(self) -> None:
        """Send the slash commands to Discord, but only when they changed since last time
        (or APOPHIS_ACTIVITY did): globally beside the Activity's Entry Point, kept as it
        is or, with Activities on, made (bot.discord.entry); or to the dev server, if set."""
        guild = discord.Object(self.config.dev_guild) if self.config.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # As Discord will get them, translations included: a changed word is a change.
        translator = self.tree.translator
        assert translator is not None, "set by setup_hook"
        payload = [
            await c.get_translated_payload(self.tree, translator)
            for c in self.tree.get_commands(guild=guild)
        ]
        activity = self.config.activity
        digest = hashlib.sha256(
            json.dumps([guild and guild.id, payload, activity], sort_keys=True).encode()
        ).hexdigest()
        if await self.store.get_meta(COMMANDS_HASH_KEY) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        synced: Sequence[object]
        if guild is None:
            assert self.application_id is not None, "known once logged in"
            synced = await sync_global(self.http, self.application_id, payload, activity=activity)
        else:  # the Entry Point is global: the dev server's commands leave it alone
            synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(COMMANDS_HASH_KEY, digest)
        log.info("synced %d commands%s", len(synced), f" to guild {guild.id}" if guild else "")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The Activity's Entry Point (Launch, in the App Launcher) launches the Activity, in
        Discord's 3 s, wherever it is used; the tree leaves it alone (CheckedCommandTree)."""
        if not is_entry_point(interaction):
            return
        try:
            await launch(interaction, self.activity_instances)
        except discord.HTTPException as exc:  # nothing else can answer it
            log.warning("the Entry Point's launch was refused (%s %s)", exc.status, exc.code)
        finally:
            release(interaction)

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command
    ) -> None:
        release(interaction)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one error boundary of slash commands: a refusal (a check's, or the game's) is
        told why, privately; a failed check otherwise explained; anything else apologised."""
        try:
            if isinstance(error, Refusal):
                await send_reason(interaction, error.error)
                return
            if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
                await send_reason(interaction, UserError("error.cannot_here"))
                return
            command = interaction.command.qualified_name if interaction.command else "?"
            await self.answer_error(interaction, f"command {command}", error)
        finally:
            release(interaction)

    async def answer_error(
        self, interaction: discord.Interaction, what: str, error: Exception
    ) -> None:
        """What every command and click that failed is answered (the one boundary): a
        refusal with its reason, privately; a bug or an outage with an apology."""
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await send_reason(interaction, original)
            return
        await self.apologise(interaction, what, original)

    async def apologise(
        self, interaction: discord.Interaction, what: str, error: Exception
    ) -> None:
        """A bug or outage on our side: logged with its traceback, answered politely."""
        if isinstance(getattr(error, "original", error), StoreBusy):
            log.warning("%s: the database was busy", what)
            if interaction.response.is_done():
                return  # the player had their answer; only our own record of it waits
            await send_reason(interaction, UserError("error.busy"))
            return
        if getattr(getattr(error, "original", error), "code", None) == UNKNOWN_INTERACTION:
            # Answered after Discord's 3 s (the bot or its database was too busy): the
            # move, if any, stands and the board shows it; nothing can answer it now.
            log.warning("%s: answered too late for Discord", what)
            return
        log.error("%s failed", what, exc_info=error)
        await send_reason(interaction, UserError("error.sorry"))

    async def close(self) -> None:
        """Planned shutdown: the core's clocks stopped where they are, what the outbox holds
        sent (OUTBOX_GRACE at most), the connection closed, then the rest of the
        composition (its other doors, the store). It always completes."""
        if self._closing:
            return await super().close()
        self._closing = True
        for task in self._tasks:
            task.cancel()
        try:
            if self.core is not None:
                await self.core.stop()
            if self._unheard is None:
                await self.outbox.close(OUTBOX_GRACE)
        finally:
            try:
                await super().close()
            finally:
                await self.composition.stop()
