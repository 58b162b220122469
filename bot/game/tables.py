"""The open lobbies and games this process follows, by game and by channel.

A table is followed from its lobby's opening (or the bot's start) until it ends; a game
that moves to its own thread is found there from then on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from bot.errors import UserError
from bot.game.access import CHANNEL
from bot.game.changes import Followed, Stream
from bot.game.clocks import stop_timers
from bot.i18n import said
from bot.i18n.said import joined
from bot.table import Table

#: The most games a channel may have playing in threads of their own at once (a lobby
#: opened in it beyond that is refused), and how many of them a reply names.
THREAD_GAMES_PER_CHANNEL = 25
THREADS_NAMED = 10
#: How many ended games' last actions are kept for their final boards' Details.
ENDED_KEPT = 200


def browsable(table: Table) -> bool:
    """Whether a browser may be shown the table: in a server's channel the bot is in."""
    return table.guild_id != 0 and table.reach == CHANNEL


class Tables:
    """Every followed table, by game id and by channel (see the module docstring)."""

    def __init__(
        self,
        time_scale: float,
        stream: Stream,
        web: bool = False,
        now: Callable[[], float] = time.time,
        *,
        activity: bool = False,
    ) -> None:
        self.time_scale = time_scale
        #: The game's time, which every table followed reads (Runtime.now).
        self.now = now
        #: Whether the live table (bot.web) is served, and opens as an Activity (anywhere)
        #: rather than as a browser's link (only in a server's channel the bot is in: a
        #: browser cannot be told who is in a DM or a group DM, or a server without it).
        self.web = web
        self.activity = activity
        self.by_id: dict[int, Table] = {}
        self.by_channel: dict[int, Table] = {}
        #: Servers whose boards carry no picture (`/apophis config`).
        self.pictures_off: set[int] = set()
        #: Where every table followed from now on is told (the web table shows a new lobby).
        self.stream = stream
        #: The last actions of the latest games ended here, as their boards last told them
        #: (their final board's Details show them; the clock's lines are in no game's log).
        self.ended_recent: dict[int, Sequence[str]] = {}

    def table_in(self, channel_id: int) -> Table:
        """The channel's open lobby or game; UserError when there is none (naming the
        threads its games play in, if any)."""
        table = self.by_channel.get(channel_id)
        if table is None:
            threads = [said.channel(t.channel_id) for t in self.in_threads_of(channel_id)]
            if len(threads) > THREADS_NAMED:  # a reply names the first few, and counts the rest
                named, more = joined(", ", threads[:THREADS_NAMED]), len(threads) - THREADS_NAMED
                raise UserError("thread.elsewhere_more", threads=named, count=more)
            if threads:
                raise UserError("thread.elsewhere", threads=joined(", ", threads))
            raise UserError("error.no_game")
        return table

    def in_threads_of(self, channel_id: int) -> list[Table]:
        """The games playing in threads opened from a channel, oldest first."""
        return [t for t in self.by_id.values() if t.parent_id == channel_id]

    def track(self, table: Table) -> None:
        """Follow a table that opened (or came back at start-up)."""
        table.pictures = table.guild_id not in self.pictures_off
        table.runtime.time_scale = self.time_scale
        table.runtime.now = self.now
        table.web = self.web and (self.activity or browsable(table))
        self.by_id[table.id] = table
        self.by_channel[table.channel_id] = table
        self.stream.publish(Followed(table))

    def move(self, table: Table, thread: int) -> None:
        """The game plays in its own thread from now on (its board is yet to be posted there);
        its channel is free for the next lobby."""
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        table.parent_id, table.channel_id = table.channel_id, thread
        table.messages.board_id = None
        self.by_channel[thread] = table

    def forget(self, table: Table) -> None:
        """The table ended: its timers stop, and it is followed no more."""
        stop_timers(table)
        self.by_id.pop(table.id, None)
        self.ended_recent[table.id] = table.recent  # (what its end adds to it too)
        while len(self.ended_recent) > ENDED_KEPT:
            del self.ended_recent[next(iter(self.ended_recent))]
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]

    def set_pictures(self, guild_id: int, on: bool) -> list[Table]:
        """Turn board pictures on or off for a server's games; the tables changed."""
        if on:
            self.pictures_off.discard(guild_id)
        else:
            self.pictures_off.add(guild_id)
        changed = [t for t in self.by_id.values() if t.guild_id == guild_id and t.pictures != on]
        for table in changed:
            table.pictures = on
        return changed
