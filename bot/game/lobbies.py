"""Lobbies: opening one (or Play again), seats taken and freed, crewmates, the host's
settings, and the start.

Each change is made under the game's lock, as one transaction in the store; a start
deals the game, arms its clock and sends every player their hand.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from bot.errors import UserError
from bot.game import changes, newcomers
from bot.game.access import CHANNEL, Gatekeeper
from bot.game.actions import held
from bot.game.audience import Audience
from bot.game.clocks import Clocks
from bot.game.tables import THREAD_GAMES_PER_CHANNEL, Tables
from bot.i18n.catalogs import said
from bot.lobby_settings import LobbySettings
from bot.store.records import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    GameRecord,
    LobbyFull,
    NotLatest,
    NotSeated,
    Removed,
    WrongStatus,
)
from bot.store.store import Store
from bot.table import Table, is_crewmate, next_crewmate
from bot.views import narration, render
from engine import MAX_PLAYERS, Game

#: Opens a starting game's thread of its own, once the start is sure: the thread's id, or
#: None to play in the game's channel (bot.discord.threads).
Venue = Callable[[Table], Awaitable[int | None]]


class Lobbies:
    """Every channel's lobby, until its game starts (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        audience: Audience,
        tables: Tables,
        clocks: Clocks,
        stream: changes.Stream,
        *,
        now: Callable[[], float],
        seed: int | None,
        gatekeeper: Gatekeeper | None = None,
    ) -> None:
        self.store = store
        self.audience = audience
        self.tables = tables
        self.clocks = clocks
        #: Where the lobby's changes are told (bot.game.changes).
        self.stream = stream
        self.now = now
        #: With a seed, every game is dealt from it and its id (reproducible demos).
        self.seed = seed
        #: Who is still a member of a server (None: everyone seated is taken to be).
        self.gatekeeper = gatekeeper

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: LobbySettings,
        *,
        host_name: str | None = None,
        reach: str = CHANNEL,
    ) -> Table:
        """A new lobby in the channel set to `settings`, the host in the first seat (with
        their display name), its players reached as `reach` says (bot.game.access)."""
        self._check_free(channel_id)
        try:
            record = await self.store.create_lobby(
                guild_id,
                channel_id,
                host_id,
                settings,
                now=self.now(),
                host_name=host_name,
                reach=reach,
            )
        except ChannelBusy:
            raise UserError("error.channel_busy") from None
        return await self._opened(record)

    async def play_again(
        self,
        game_id: int,
        channel_id: int,
        user_id: int,
        name: str | None = None,
        *,
        reach: str,
    ) -> Table:
        """Play again, pressed on an ended game's final board by someone who played it: a
        lobby like it in its channel, the clicker hosting (Store.play_again), its players
        reached as `reach` says for where it was pressed (as a new lobby there would be)."""
        self._check_free(channel_id)
        refusals = {
            ChannelBusy: "error.channel_busy",
            NotLatest: "again.not_latest",
            Removed: "again.removed",
            NotSeated: "again.not_a_player",
            GameNotFound: "error.other_channel",
            WrongStatus: "error.buttons_over",
        }
        try:
            record = await self.store.play_again(
                game_id, channel_id, user_id, now=self.now(), host_name=name, reach=reach
            )
        except tuple(refusals) as exc:
            raise UserError(refusals[type(exc)]) from None
        for person in await self._gone(record.guild_id, record.invited):
            record = await self.store.drop_invitation(record.id, person)  # left the server
        return await self._opened(record)

    async def _gone(self, guild_id: int, people: Iterable[int]) -> list[int]:
        """Those of `people` (crewmates aside) who are no longer members of the server."""
        people = [p for p in people if not is_crewmate(p)]
        if self.gatekeeper is None or not people:
            return []
        members = await asyncio.gather(*(self.gatekeeper.is_member(p, guild_id) for p in people))
        return [p for p, member in zip(people, members, strict=True) if not member]

    def _check_free(self, channel_id: int) -> None:
        """UserError unless a lobby may open in the channel: none open there, and fewer than
        THREAD_GAMES_PER_CHANNEL of its games playing in their threads."""
        if channel_id in self.tables.by_channel:
            raise _busy(self.tables.by_channel[channel_id])
        if len(self.tables.in_threads_of(channel_id)) >= THREAD_GAMES_PER_CHANNEL:
            raise UserError("thread.full", count=THREAD_GAMES_PER_CHANNEL)

    async def _opened(self, record: GameRecord) -> Table:
        """A lobby just opened, followed from now on in its server's language and cards (its
        people's language where there is no server)."""
        table = Table.from_record(record)
        table.language, table.cards = await self.audience.table(table)
        self.tables.track(table)
        return table

    async def join(self, channel_id: int, user_id: int, name: str | None = None) -> Table:
        """Seat a person in the lobby, with their display name (for the board's picture)."""
        table = self.tables.table_in(channel_id)
        async with held(table):
            if table.status != "lobby":
                raise UserError("error.started_wait")
            if user_id in table.seats:
                raise UserError("error.already_seated")
            if len(table.seats) >= MAX_PLAYERS:
                raise UserError("error.full")
            try:
                record = await self.store.add_player(table.id, user_id, now=self.now(), name=name)
            except AlreadySeated:
                raise UserError("error.already_seated") from None
            except LobbyFull:
                raise UserError("error.full") from None
            table.seats, table.names = list(record.players), dict(record.names)
            table.touched = record.updated_at
            table.language, table.cards = await self.audience.table(table)
            newcomers.seated(table, await self.store.newness(0, [user_id]), [user_id])
        return table

    async def add_crewmate(self, channel_id: int, by: int) -> Table:
        """The host seats an AI crewmate in the lobby."""
        table = self.tables.table_in(channel_id)
        async with held(table):
            _check_crew_change(table, by)
            if len(table.seats) >= MAX_PLAYERS:
                raise UserError("error.full")
            crewmate = next_crewmate(table.seats)
            record = await self.store.add_player(table.id, crewmate, now=self.now())
            table.seats, table.touched = list(record.players), record.updated_at
        return table

    async def remove_crewmate(self, channel_id: int, by: int) -> Table:
        """The host takes back the AI crewmate seated last."""
        table = self.tables.table_in(channel_id)
        async with held(table):
            _check_crew_change(table, by)
            crewmates = [seat for seat in table.seats if is_crewmate(seat)]
            if not crewmates:
                raise UserError("error.no_crewmate")
            record = await self.store.remove_player(table.id, crewmates[-1], now=self.now())
            table.seats, table.touched = list(record.players), record.updated_at
        return table

    async def unseat(self, table: Table, user_id: int, *, host_refusal: str, absent: str) -> Table:
        """Free a lobby seat (the host's stays: a lobby always has its host)."""
        async with held(table):
            if user_id == table.host_id:
                raise UserError(host_refusal)
            try:
                record = await self.store.remove_player(table.id, user_id, now=self.now())
            except NotSeated:
                raise UserError(absent) from None
            table.seats, table.touched = list(record.players), record.updated_at
            table.language, table.cards = await self.audience.table(table)
            table.newcomers.discard(user_id)
        return table

    async def configure(self, channel_id: int, user_id: int, asked: Mapping[str, Any]) -> Table:
        """The host chooses some of the lobby's options again (`asked`, by name; each checked
        by the caller, what is left out stays: LobbySettings.chosen)."""
        table = self.tables.table_in(channel_id)
        async with held(table):
            if table.status != "lobby":
                raise UserError("settings.started")
            if user_id != table.host_id:
                raise UserError("settings.host_only", host=render.mention(table.host_id))
            asked, table.offer = newcomers.chosen(table, asked)
            settings = table.settings.chosen(**asked)
            record = await self.store.configure_lobby(table.id, settings, now=self.now())
            table.settings, table.touched = record.settings, record.updated_at
        return table

    async def cancel(self, table: Table) -> None:
        """Close a lobby that will not start (abandoned); the game's lock is held."""
        await self.store.cancel_lobby(table.id, now=self.now())
        table.status = "abandoned"
        self.tables.forget(table)
        self.stream.publish(changes.BoardChanged(table))

    async def start(
        self,
        channel_id: int,
        user_id: int,
        start_player: int | None = None,
        *,
        venue: Venue | None = None,
    ) -> Table:
        """Deal, start the clock and send every player their hand (host only).

        A `venue` may open the game's own thread first: the game then moves there, in the
        same transaction as its start, and its channel is free for the next lobby.
        """
        table = self.tables.table_in(channel_id)
        async with held(table):
            if table.status != "lobby":
                raise UserError("error.started")
            if user_id != table.host_id:
                raise UserError("error.host_starts", host=render.mention(table.host_id))
            for person in await self._gone(table.guild_id, table.seats):  # they left it
                record = await self.store.remove_player(table.id, person, now=self.now())
                table.seats = list(record.players)
            if start_player is not None and start_player not in table.seats:
                raise UserError("error.first_not_seated")
            seed = secrets.randbits(63) if self.seed is None else hash_seed(self.seed, table.id)
            game = Game.new(table.seats, table.rules, seed=seed, start_player=start_player)
            first = game.active_player
            assert first is not None  # a game just dealt has a player to move
            thread = await venue(table) if venue is not None else None
            now = self.now()
            deadline = now + table.length_seconds / self.clocks.time_scale
            state = game.save()
            record = await self.store.start_game(
                table.id,
                seed=seed,
                start_player=first,
                state=state,
                deadline=deadline,
                now=now,
                thread_id=thread,
            )
            if thread is not None:
                self.tables.move(table, thread)
            table.game, table.stored, table.status = game, state, record.status
            table.version, table.deadline = record.version, deadline
            table.recent.append(started_line(table, first))
            self.clocks.arm(table)
            for player in game.players:
                self.stream.publish(changes.HandChanged(table, player, [narration.BEGAN]))
            if first != user_id:
                self.stream.publish(changes.TurnPassed(table, first))
            self.stream.publish(changes.BoardChanged(table))
        return table


def started_line(table: Table, first: int) -> str:
    """The first of the game's last actions: the countdown started, and who plays first."""
    length = render.duration(table.length_seconds)
    return said(table.language, "notice.started", length=length, player=render.mention(first))


def _check_crew_change(table: Table, by: int) -> None:
    if table.status != "lobby":
        raise UserError("error.crew_in_lobby")
    if by != table.host_id:
        raise UserError("error.host_seats_crew", host=render.mention(table.host_id))


def _busy(table: Table) -> UserError:
    key = "error.busy_lobby" if table.status == "lobby" else "error.busy_game"
    return UserError(key, id=table.id)


def hash_seed(seed: int, game_id: int) -> int:
    """A game's seed from the configured one: distinct per game, the same every run."""
    digest = hashlib.sha256(f"{seed}:{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
