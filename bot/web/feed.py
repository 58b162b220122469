"""The web table's listener of the service's changes: every change of a channel's table
reaches the web clients watching that channel, each with what only it may see.

Changes made in the same turn of the event loop go out as one state, sent as soon as
the loop is free (the game's lock is released by then). The public part is worded once
per language; each seated player's part (their hand, their moves) once per player.
Clients watching a channel whose game moved to its own thread follow it there. Each
client decides whether it may still be sent a state (bot.web.sockets: an Activity's is
checked against its instance first).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Protocol

import orjson

from bot.game import changes
from bot.game.presence import Presence
from bot.table import Table
from bot.views import table_state, web_state
from bot.views.plain import Names
from engine import PlayerView

#: Channels whose last table is kept for clients who open the table later.
SHOWN_KEPT = 512


class Viewer(Protocol):
    """A web client as the feed sees it (bot.web.sockets.Client)."""

    channel: int
    viewer: int | None
    language: str

    def offer(self, state: str) -> None: ...


class Feed:
    """Web clients by channel, and the latest table of each channel (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        #: The picture each person chose, a path under Discord's CDN (the gatekeeper's).
        self.avatar_of: Callable[[int], str | None] = lambda player: None
        #: The service's open tables by channel (GameService.by_channel), once it serves,
        #: and those of other processes watched here (bot.game.mirrors), where several share
        #: the database.
        self.live: Mapping[int, Table] = {}
        self.mirrored: Mapping[int, Table] = {}
        #: Who watches on the other processes (bot.game.presence), where several serve.
        self.presence: Presence | None = None
        self.viewers: dict[int, set[Viewer]] = {}
        #: What a channel shows when the service follows no table there: its last game
        #: once ended (its result, and Play again), or a game playing in a thread opened
        #: from it; the SHOWN_KEPT channels changed last.
        self.shown: OrderedDict[int, Table] = OrderedDict()
        self._due: dict[int, Table] = {}
        self._scheduled = False

    # ------------------------------------------------------------- clients

    def join(self, client: Viewer) -> None:
        self.viewers.setdefault(client.channel, set()).add(client)
        self._told(client.channel)

    def leave(self, client: Viewer) -> None:
        watching = self.viewers.get(client.channel)
        if watching is not None:
            watching.discard(client)
            if not watching:
                del self.viewers[client.channel]
            self._told(client.channel)

    def _told(self, channel: int) -> None:
        """Someone came or went here: the other processes are told, and the others here."""
        if self.presence is not None:
            viewers = [client.viewer or 0 for client in self.viewers.get(channel, ())]
            self.presence.watched(channel, viewers)
        self.recount(channel)

    def recount(self, channel: int) -> None:
        """Someone came or went: the others see how many watch (a table shown there)."""
        table = self.table_in(channel)
        if table is not None and self.viewers.get(channel):
            self._due[table.id] = table
            self._schedule()

    def watching(self, table: Table, clients: list[Viewer] | None = None) -> int:
        """How many watch `table` without a seat in it: web clients here and, where several
        processes serve the tables, on the others."""
        if clients is None:
            clients = self._clients(table)
        seated = table.game.players if table.game is not None else table.seats
        here = sum(1 for client in clients if client.viewer not in seated)
        if self.presence is None:
            return here
        channels = {table.channel_id, table.parent_id or table.channel_id}
        there = [v for channel in channels for v in self.presence.elsewhere(channel)]
        return here + sum(1 for viewer in there if viewer not in seated)

    def _clients(self, table: Table) -> list[Viewer]:
        return [
            client
            for channel in {table.channel_id, table.parent_id}
            if channel is not None
            for client in self.viewers.get(channel, ())
        ]

    def table_in(self, channel: int) -> Table | None:
        """The table a client of `channel` sees: its open one, else the last one shown
        there (or in a thread opened from it)."""
        return self.live.get(channel) or self.mirrored.get(channel) or self.shown.get(channel)

    def state_for(self, client: Viewer, table: Table | None) -> str:
        """The whole state one client sees now, as JSON text."""
        now = self.clock()
        if table is None:
            watching = len(self.viewers.get(client.channel, ()))
            return orjson.dumps(web_state.no_table(client.channel, now, watching)).decode()
        shared = orjson.dumps(
            web_state.public(
                table,
                now,
                client.language,
                markup=Names(table),
                avatar_of=self.avatar_of,
                watching=self.watching(table),
            )
        )
        mine = web_state.private(table, client.viewer, now, client.language, markup=Names(table))
        return _merged(shared, mine)

    # ------------------------------------------------------------- changes

    def changed(self, table: Table) -> None:
        """`table` changed: its clients get its new state once this turn of the loop ends."""
        here = [table.parent_id] if table.open else [table.channel_id, table.parent_id]
        for channel in here:
            if channel is not None:
                self.shown[channel] = table
                self.shown.move_to_end(channel)
        while len(self.shown) > SHOWN_KEPT:
            self.shown.popitem(last=False)
        self._due[table.id] = table
        self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.send_due)

    def send_due(self) -> None:
        """Send every changed table's state to its clients."""
        self._scheduled = False
        due, self._due = self._due, {}
        now = self.clock()
        for table in due.values():
            clients = self._clients(table)
            if clients:
                self._send(table, clients, now)

    def _send(self, table: Table, clients: list[Viewer], now: float) -> None:
        # What every client's state shares is worked out once: the engine's views (one
        # per seated viewer, whose public part is the table's), the board's moves.
        game = table.game
        views: dict[int, PlayerView] = {}
        if game is not None:
            players = game.players
            for client in clients:
                viewer = client.viewer
                if viewer is not None and viewer not in views and viewer in players:
                    views[viewer] = game.view_for(viewer)
        view = next(iter(views.values())).table if views else None
        watching = self.watching(table, clients)
        moves: dict[str, list[table_state.Component]] = {}
        shared: dict[str, bytes] = {}
        by_viewer: dict[tuple[int | None, str], str] = {}
        for client in clients:
            language, viewer = client.language, client.viewer
            key = (viewer, language)
            state = by_viewer.get(key)
            if state is None:
                if language not in shared:
                    shared[language] = orjson.dumps(
                        web_state.public(
                            table,
                            now,
                            language,
                            view,
                            markup=Names(table),
                            avatar_of=self.avatar_of,
                            watching=watching,
                        )
                    )
                if language not in moves and viewer is not None:
                    moves[language] = web_state.board_moves_of(table, now, language)
                board_moves = moves.get(language)
                mine = web_state.private(
                    table,
                    viewer,
                    now,
                    language,
                    None if viewer is None else views.get(viewer),
                    board_moves,
                    markup=Names(table),
                )
                state = by_viewer[key] = _merged(shared[language], mine)
            client.offer(state)

    def heard(self, change: changes.TableChange) -> None:
        """A change on the service's stream: the table's clients get its new state (turns and
        posts show in the state itself; it is sent when the loop is free, whoever answers)."""
        if not isinstance(change, changes.TurnPassed | changes.Posted | changes.Settled):
            self.changed(change.table)


def _merged(shared: bytes, mine: Mapping[str, object]) -> str:
    """One JSON object from the public part (already serialised) and a viewer's own."""
    return (shared[:-1] + b"," + orjson.dumps(mine)[1:]).decode()
