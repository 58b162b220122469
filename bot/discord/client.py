"""The Discord client: its options, its parsers, and the events it hands to its collaborators.

It is one door of the game core (bot.game.core, through bot.discord.door): the core holds
the store, the games and their recovery; the client sends what they cause (the outbox).
Logged in, it sets up its cogs and syncs its commands (bot.discord.sync), and hands each
kind of event to the collaborator whose job it is: the games that came back, told once
their shard is ready (bot.discord.returning); what Discord tells of channels
(bot.discord.channel_events); the turns to IDENTIFY across processes
(bot.discord.identify); the Activity's Entry Point (bot.discord.entry). A command that
fails is answered at the one error boundary (bot.discord.boundary).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.discord import handover
from bot.discord.answers import release, send_reason
from bot.discord.boundary import command_failed
from bot.discord.channel_events import ChannelEvents
from bot.discord.clicked import read_clicks_lightly
from bot.discord.entry import answer_entry_point, is_entry_point
from bot.discord.gatekeeper import Gatekeeper
from bot.discord.identify import IdentifyTurns
from bot.discord.inputs import command_problem
from bot.discord.outbox import Outbox
from bot.discord.returning import Returning
from bot.discord.sync import sync_commands
from bot.discord.translator import CommandTranslator
from bot.game.changes import TableChange
from bot.store.records import Shards

if TYPE_CHECKING:
    from bot.game.audience import Audience
    from bot.game.core import GameCore
    from bot.game.service import GameService
    from bot.store.store import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.discord.cogs.play",)
#: At shutdown, seconds to send what the outbox still holds (the whole stop takes 4 s at most).
OUTBOX_GRACE = 2.0
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
    """The slash commands; each is checked on arrival, before its handler runs, and answered
    at the one error boundary when it fails (bot.discord.boundary)."""

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

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await command_failed(interaction, error)


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
        #: Made once logged in (`setup_hook`), with the core: the outbox, and the
        #: collaborators the client hands its events to.
        self.outbox: Outbox
        self.channels: ChannelEvents
        self.returning: Returning
        self.turns: IdentifyTurns
        #: Changes heard before the outbox was made (it sends only once logged in); None
        #: once it is.
        self._unheard: list[TableChange] | None = []
        #: Who may do what where, for doors that do not carry Discord's permissions.
        self.gatekeeper = Gatekeeper(self)
        self._closing = False

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
        """Logged in: the core started (and the other doors), then the outbox and the
        collaborators, the cogs and the commands. Each channel whose game came back is told
        how much time is left once its shard is ready (`on_shard_ready`), and what the bot
        left half done when it stopped is finished then."""
        await self.composition.start()
        assert self.core is not None, "the composition starts this door with its core"
        core = self.core
        if core.service.relay is not None:  # interactions of the others' games go to them
            handover.install(self, core.service.relay)
        self.outbox = Outbox(
            self,
            core.store,
            core.audience,
            rate=self.config.global_rate,
            gone=lambda channel_id: self.channels.found_gone(channel_id),
            clock=time.monotonic if core.timer is None else core.timer.now,
            timer=core.timer,
        )
        self.channels = ChannelEvents(self, self.outbox, core.service)
        self.returning = Returning(self, self.outbox, core.service, self.channels)
        self.turns = IdentifyTurns(core.store)
        unheard, self._unheard = self._unheard or [], None
        for change in unheard:
            self.outbox.heard(change)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tree.set_translator(CommandTranslator())
        await sync_commands(self, self.config, core.store)
        self.returning.expect(core.recovered)

    # ------------------------------------------------ events, each to its collaborator

    async def on_shard_ready(self, shard_id: int) -> None:
        await self.returning.shard_ready(shard_id, self.shard_count or 1)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.channels.deleted_with_threads(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.channels.deleted(payload.thread_id)

    async def on_guild_channel_update(self, before, after: discord.abc.GuildChannel) -> None:
        self.channels.permissions_changed(after.guild.id)

    async def on_guild_role_update(self, before, after: discord.Role) -> None:
        self.channels.permissions_changed(after.guild.id)

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        self.channels.permissions_changed(role.guild.id)

    async def on_member_update(self, before, after: discord.Member) -> None:
        self.channels.member_changed(after)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """One IDENTIFY every 5 seconds for the whole bot (bot.discord.identify); alone on
        SQLite, the shards of this process wait 5 seconds each (discord.py's own way)."""
        if not await self.turns.take(shard_id):
            await super().before_identify_hook(shard_id, initial=initial)

    async def on_shard_connect(self, shard_id: int) -> None:
        await self.turns.answered(shard_id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The Activity's Entry Point; the tree leaves it alone (CheckedCommandTree)."""
        await answer_entry_point(interaction)

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command
    ) -> None:
        release(interaction)

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

    async def close(self) -> None:
        """Planned shutdown: the core's clocks stopped where they are, what the outbox holds
        sent (OUTBOX_GRACE at most), the connection closed, then the rest of the
        composition (its other doors, the store). It always completes."""
        if self._closing:
            return await super().close()
        self._closing = True
        set_up = self._unheard is None
        if set_up:
            self.channels.stop()
        try:
            if self.core is not None:
                await self.core.stop()
            if set_up:
                await self.outbox.close(OUTBOX_GRACE)
        finally:
            try:
                await super().close()
            finally:
                await self.composition.stop()
