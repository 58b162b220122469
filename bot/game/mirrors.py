"""Games another process owns, as stored, for the live table here: read again at each notice.

Where several processes share the database, a live table open on this process may show a
game another one owns (bot.game.relay). Its channel is followed while someone watches it
here: the game is read from the database then, and again at each notice of its owner
(bot.game.relay: its id and version), and after the notices' connection was lost (a
notice sent meanwhile was never heard). A table read so is told its last actions and
launch report from the game's log, as its owner told them, and its standing signals; it
is never played here: every command for it goes to its owner.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable

from bot.game.announce import tell_recent, tell_report
from bot.game.audience import Audience
from bot.game.ledger import logged_events
from bot.game.lobbies import started_line
from bot.game.tables import Tables
from bot.store.records import GameNotFound, GameRecord, LoggedAction, Shards, StoreBusy
from bot.store.store import Store
from bot.table import Table
from engine import events as ev
from engine.signals import Said, Signal

log = logging.getLogger(__name__)


class Mirrors:
    """The other processes' games watched here (see the module docstring)."""

    def __init__(self, store: Store, audience: Audience, shards: Shards, registry: Tables) -> None:
        self.store = store
        #: This process's own tables: their clock and time scale are the mirrors' too.
        self.registry = registry
        self.audience = audience
        self.shards = shards
        #: The games read, by id, and by their channel (and the channel their thread was
        #: opened from).
        self.by_id: dict[int, Table] = {}
        self.by_channel: dict[int, Table] = {}
        #: How many watch each channel here.
        self.followed: Counter[int] = Counter()
        #: Told each table read again (the live table sends its new state).
        self.changed: Callable[[Table], None] = lambda table: None
        self._reading: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._pending: set[asyncio.Future[Table | None]] = set()
        #: The channels being read for someone who arrived (bot.game.mirrors.follow).
        self._arriving: dict[int, asyncio.Future[Table | None]] = {}

    def elsewhere(self, guild_id: int, channel_id: int) -> bool:
        """Whether another process owns the games of that channel."""
        return not self.shards.own(guild_id, channel_id)

    async def follow(self, channel: int) -> Table | None:
        """Someone watches `channel` here: its open game, read now (None: none open; those
        arriving together, everyone reconnecting at once, share one read)."""
        self.followed[channel] += 1
        table = self.by_channel.get(channel)
        if table is not None:
            return table
        reading = self._arriving.get(channel)
        if reading is None:
            reading = self._arriving[channel] = asyncio.ensure_future(self._read_in(channel))
            reading.add_done_callback(lambda _: self._arriving.pop(channel, None))
        return await asyncio.shield(reading)

    def unfollow(self, channel: int) -> None:
        self.followed[channel] -= 1
        if self.followed[channel] > 0:
            return
        del self.followed[channel]
        table = self.by_channel.get(channel)
        if table is not None and not {table.channel_id, table.parent_id} & self.followed.keys():
            self._drop(table)

    def heard(self, game_id: int, version: int, channel: int, parent: int | None) -> None:
        """An owner's notice: the game is read again if it is watched here."""
        if game_id not in self.by_id and not {channel, parent} & self.followed.keys():
            return
        if game_id in self._reading:
            self._again.add(game_id)  # read once more when this reading ends
            return
        task = asyncio.ensure_future(self._read(game_id))
        self._reading[game_id] = task
        task.add_done_callback(lambda _: self._read_done(game_id))

    def reconnected(self) -> None:
        """Notices may have been missed: every watched game is read again."""
        for channel in list(self.followed):
            table = self.by_channel.get(channel)
            if table is not None:
                self.heard(table.id, table.version, table.channel_id, table.parent_id)
            else:
                task = asyncio.ensure_future(self._read_in(channel))
                self._pending.add(task)
                task.add_done_callback(self._pending.discard)

    # ------------------------------------------------------------ reading

    async def _read_in(self, channel: int) -> Table | None:
        try:
            record = await self.store.active_game_in_channel(channel)
        except StoreBusy as exc:
            log.warning("the game in channel %d could not be read: %s", channel, exc)
            return None
        if record is None or not self.elsewhere(record.guild_id, record.channel_id):
            return None
        await self._read(record.id)
        return self.by_id.get(record.id)

    async def _read(self, game_id: int) -> None:
        """The game as stored now; its last actions told on from the table read before (only
        the actions logged since are read), or from its whole log the first time."""
        old = self.by_id.get(game_id)
        since = old.version if old is not None else 0
        try:
            record, logged, signals = await self.store.game_as_told(game_id, since)
        except (GameNotFound, StoreBusy) as exc:
            log.warning("game %d could not be read again: %s", game_id, exc)
            return
        if old is not None and record.version < old.version:
            return  # (a read overtaken by a later one)
        table = await self._table(record, old, logged, signals)
        if old is not None:
            self._drop(old)
        if table.open:
            self.by_id[table.id] = table
            self.by_channel[table.channel_id] = table
            if table.parent_id is not None:
                self.by_channel.setdefault(table.parent_id, table)
        self.changed(table)

    def _read_done(self, game_id: int) -> None:
        self._reading.pop(game_id, None)
        if game_id in self._again:
            self._again.discard(game_id)
            table = self.by_id.get(game_id)
            if table is not None:
                self.heard(game_id, table.version, table.channel_id, table.parent_id)

    async def _table(
        self,
        record: GameRecord,
        old: Table | None,
        logged: list[LoggedAction],
        signals: list[tuple[int, str, int]],
    ) -> Table:
        """The game as its owner shows it: its last actions, launch report and signals."""
        table = Table.from_record(record)
        table.runtime.now, table.runtime.time_scale = self.registry.now, self.registry.time_scale
        table.web = self.registry.web
        table.language, table.cards = await self.audience.table(table)
        if table.game is None:
            return table
        if old is not None and old.game is not None:  # told on from where it was
            table.recent, table.report = old.recent, old.report
        elif record.start_player is not None:
            table.recent.append(started_line(table, record.start_player))
        for action in logged:
            told = [ev.from_dict(event) for event in action.events]
            tell_recent(table, told)
            tell_report(table, told, action.actor)
        if not table.open:
            table.history = logged_events(await self.store.game_log(table.id))
            table.firsts = await self.store.game_firsts(table.id)
        table.said = {p: Said(p, Signal.read(code), until) for p, code, until in signals}
        return table

    def _drop(self, table: Table) -> None:
        self.by_id.pop(table.id, None)
        for channel in (table.channel_id, table.parent_id):
            if channel is not None and self.by_channel.get(channel) is table:
                del self.by_channel[channel]
