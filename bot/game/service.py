"""The game service: the one place where games change.

A command handler asks the service to do something to a channel's game. Under that
game's lock the service checks it, applies it to the engine, commits it to the store
(one transaction), and only then tells the notifier what players should see. Games
never wait on each other: each has its own lock. Clocks and the reshuffle delay are
asyncio timers owned here.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import itertools
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from bot.errors import MovedOn, StaleBoard, UserError
from bot.game.audience import Audience
from bot.game.crewmates import CrewDriver
from bot.i18n.catalogs import t
from bot.store.records import (
    ALL_SHARDS,
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    GameRecord,
    LobbyFull,
    NotLatest,
    NotSeated,
    Shards,
    StaleVersion,
    WrongStatus,
)
from bot.store.store import Store
from bot.table import Change, Notice, Notifier, Report, Table, is_crewmate, next_crewmate
from bot.views import narration, render
from engine import MAX_PLAYERS, RESHUFFLE_SECONDS, Game, IllegalMove, Phase
from engine import events as ev

log = logging.getLogger(__name__)

#: Opens a starting game's thread of its own, once the start is sure: the thread's id, or
#: None to play in the game's channel (bot.discord.threads).
Venue = Callable[[Table], Awaitable[int | None]]

#: Game-time seconds before the end at which the channel is warned (longest first).
WARNINGS = (300, 60, 10)
#: The longest a player's action waits for its game's lock: with the store's own 1 s
#: limit, every interaction is answered well inside Discord's 3 seconds, busy or not.
LOCK_WAIT = 1.0
#: Seconds between attempts of a timer's action that could not be saved (the last repeats).
TIMER_RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)
#: The reason recorded with a game (or lobby) ended because its channel was deleted.
CHANNEL_DELETED = "channel_deleted"


@dataclass(frozen=True, slots=True)
class ActionResult:
    """An accepted action: what it caused and the public lines that tell it."""

    table: Table
    events: list[ev.Event]
    lines: list[str]
    #: Who hosts now, when the action made someone else host.
    new_host: int | None = None


class GameService:
    """Lobbies, games and clocks of every channel; see the module docstring."""

    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        audience: Audience,
        *,
        time_scale: float = 1.0,
        clock: Callable[[], float] = time.time,
        seed: int | None = None,
        shards: Shards = ALL_SHARDS,
    ) -> None:
        self.store = store
        self.audience = audience
        #: With a seed, every game is dealt from it and its id (reproducible demos).
        self.seed = seed
        self.time_scale = time_scale
        self.now = clock
        #: AI crewmates play through the service; the notifier is reached through them.
        self.crew = CrewDriver(notifier, self._crewmate_acts, time_scale, lambda: self.now())
        self.notifier: Notifier = self.crew
        #: The Discord shards this process runs (named when another process interferes).
        self.shards = shards
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, Table] = {}
        #: Games another process wrote to (each reported once).
        self._rivals: set[int] = set()
        #: Servers whose boards carry no picture (`/apophis config`).
        self.pictures_off: set[int] = set()
        #: Timers' actions under way (retried until saved), cancelled at shutdown.
        self._timer_tasks: set[asyncio.Task] = set()

    # ---------------------------------------------------------------- lookups

    def table_in(self, channel_id: int) -> Table:
        """The channel's open lobby or game; UserError when there is none (naming the
        threads its games play in, if any)."""
        table = self.by_channel.get(channel_id)
        if table is None:
            threads = [
                f"<#{t.channel_id}>" for t in self.tables.values() if t.parent_id == channel_id
            ]
            if threads:
                raise UserError("thread.elsewhere", threads=", ".join(threads))
            raise UserError("error.no_game")
        return table

    def seen(self, channel_id: int, user_id: int) -> None:
        """Someone clicked or typed something in a channel: if they play its game, the
        autopilot counts from now, and gives them their seat back (bot.game.autopilot)."""
        table = self.by_channel.get(channel_id)
        if table is not None:
            self.crew.autopilot.seen(table, user_id)

    def message_posted(self, channel_id: int, message_id: int) -> None:
        """Someone posted in a channel (a gateway event): count it if it is below a board."""
        table = self.by_channel.get(channel_id)
        if table is not None and message_id > (table.board_message_id or message_id):
            table.below += 1

    def _track(self, table: Table) -> None:
        table.pictures = table.guild_id not in self.pictures_off
        table.time_scale = self.time_scale
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table

    def set_pictures(self, guild_id: int, on: bool) -> list[Table]:
        """Turn board pictures on or off for a server's games; the tables changed."""
        if on:
            self.pictures_off.discard(guild_id)
        else:
            self.pictures_off.add(guild_id)
        changed = [t for t in self.tables.values() if t.guild_id == guild_id and t.pictures != on]
        for table in changed:
            table.pictures = on
        return changed

    def set_autopilot(self, guild_id: int, seconds: int) -> None:
        """A server chose its autopilot delay (0: off): its open games follow it now."""
        self.crew.autopilot.configure(guild_id, seconds, list(self.tables.values()))

    def _move(self, table: Table, thread: int) -> None:
        """The game plays in its own thread from now on (its board is yet to be posted there);
        its channel is free for the next lobby."""
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        table.parent_id, table.channel_id = table.channel_id, thread
        table.board_message_id = None
        self.by_channel[thread] = table

    def _forget(self, table: Table) -> None:
        _stop_timers(table)
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]

    # --------------------------------------------------------------- recovery

    async def recover(self) -> list[Table]:
        """Start-up: every open game comes back with its clock re-armed where it stopped."""
        self.pictures_off = await self.store.guilds_without_pictures()
        self.crew.autopilot.delays = await self.store.autopilot_delays()
        records = await self.store.resume_clocks(self.now())
        tables = []
        for record in records:
            table = Table.from_record(record)
            table.language, table.cards = await self.audience.server(table.guild_id)
            self._track(table)
            if table.status == "active":
                self._arm_clock(table)
                if table.game is not None and table.game.phase is Phase.RESHUFFLE:
                    self._arm_reshuffle(table)
                self.crew.wake(table)
            tables.append(table)
        return tables

    def stop_timers(self) -> None:
        """Planned shutdown: no timer may fire while the store freezes the clocks."""
        for table in self.tables.values():
            for timer in table.timers:
                timer.cancel()
            if table.reshuffle_timer is not None:
                table.reshuffle_timer.cancel()
        for task in self._timer_tasks:
            task.cancel()
        self.crew.stop()

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        rules: str,
        difficulty: str,
        length_seconds: int,
        host_name: str | None = None,
    ) -> Table:
        """A new lobby in the channel, the host in the first seat (with their display name)."""
        if channel_id in self.by_channel:
            raise _busy(self.by_channel[channel_id])
        try:
            record = await self.store.create_lobby(
                guild_id,
                channel_id,
                host_id,
                rules,
                difficulty,
                length_seconds,
                now=self.now(),
                host_name=host_name,
            )
        except ChannelBusy:
            raise UserError("error.channel_busy") from None
        return await self._opened(record)

    async def play_again(
        self, game_id: int, channel_id: int, user_id: int, name: str | None = None
    ) -> Table:
        """Play again, pressed on an ended game's final board by someone who played it: a
        lobby like it in its channel, the clicker hosting (Store.play_again)."""
        if channel_id in self.by_channel:
            raise _busy(self.by_channel[channel_id])
        refusals = {
            ChannelBusy: "error.channel_busy",
            NotLatest: "again.not_latest",
            NotSeated: "again.not_a_player",
            GameNotFound: "error.other_channel",
            WrongStatus: "error.buttons_over",
        }
        try:
            record = await self.store.play_again(
                game_id, channel_id, user_id, now=self.now(), host_name=name
            )
        except tuple(refusals) as exc:
            raise UserError(refusals[type(exc)]) from None
        return await self._opened(record)

    async def _opened(self, record: GameRecord) -> Table:
        """A lobby just opened, followed from now on in its server's language and cards."""
        table = Table.from_record(record)
        table.language, table.cards = await self.audience.server(record.guild_id)
        self._track(table)
        return table

    async def join(self, channel_id: int, user_id: int, name: str | None = None) -> Table:
        """Seat a person in the lobby, with their display name (for the board's picture)."""
        table = self.table_in(channel_id)
        async with _held(table):
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
        return table

    async def add_crewmate(self, channel_id: int, by: int) -> Table:
        """The host seats an AI crewmate in the lobby."""
        table = self.table_in(channel_id)
        async with _held(table):
            self._check_crew_change(table, by)
            if len(table.seats) >= MAX_PLAYERS:
                raise UserError("error.full")
            crewmate = next_crewmate(table.seats)
            record = await self.store.add_player(table.id, crewmate, now=self.now())
            table.seats = list(record.players)
        return table

    async def remove_crewmate(self, channel_id: int, by: int) -> Table:
        """The host takes back the AI crewmate seated last."""
        table = self.table_in(channel_id)
        async with _held(table):
            self._check_crew_change(table, by)
            crewmates = [seat for seat in table.seats if is_crewmate(seat)]
            if not crewmates:
                raise UserError("error.no_crewmate")
            record = await self.store.remove_player(table.id, crewmates[-1])
            table.seats = list(record.players)
        return table

    def _check_crew_change(self, table: Table, by: int) -> None:
        if table.status != "lobby":
            raise UserError("error.crew_in_lobby")
        if by != table.host_id:
            raise UserError("error.host_seats_crew", host=render.mention(table.host_id))

    async def _crewmate_acts(
        self,
        table: Table,
        crewmate: int,
        action: dict[str, Any],
        notice: Notice | None = None,
        version: int | None = None,
    ) -> bool:
        """A crewmate's move, through the same path as a player's; False if refused.

        Its `notice`, if any, tells the move in public in place of the usual line; it is
        refused if the game moved on from `version`, the one it was decided on. A person's
        seat on autopilot plays the same way, unless they took it back meanwhile.
        Crewmates do not play on once every person has left: the game ends instead, as
        abandoned. A move that cannot be saved is retried as timers are (the channel is
        told once that the game is held up), until it is saved or no longer possible.
        """
        refused: list[UserError] = []

        async def move(table: Table) -> None:
            if not table.open:
                return
            try:
                if table.game is not None and all(is_crewmate(p) for p in table.game.players):
                    await self.end(table.channel_id, crewmate, "only_crewmates")
                else:
                    await self.act(
                        table.channel_id,
                        crewmate,
                        action,
                        expected_version=version,
                        notice=notice,
                        autopilot=not is_crewmate(crewmate),
                    )
            except UserError as exc:  # the game moved on: the driver decides again
                refused.append(exc)

        await self._until_saved(move, table, "timer.crewmate")
        if refused:
            log.info("crewmate %s in game %s was refused: %s", crewmate, table.id, refused[0])
        return not refused

    async def leave(self, channel_id: int, user_id: int) -> Table | ActionResult:
        """Leave a lobby, or a game in progress (your cards go to the discard pile)."""
        table = self.table_in(channel_id)
        if table.status == "active":
            return await self.act(channel_id, user_id, {"type": "remove_player"}, as_player=True)
        return await self._unseat(
            table,
            user_id,
            host_refusal="error.host_cannot_leave",
            absent="error.not_seated",
        )

    async def _unseat(self, table: Table, user_id: int, *, host_refusal: str, absent: str) -> Table:
        """Free a lobby seat (the host's stays: a lobby always has its host)."""
        async with _held(table):
            if user_id == table.host_id:
                raise UserError(host_refusal)
            try:
                record = await self.store.remove_player(table.id, user_id)
            except NotSeated:
                raise UserError(absent) from None
            table.seats = list(record.players)
        return table

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
        table = self.table_in(channel_id)
        async with _held(table):
            if table.status != "lobby":
                raise UserError("error.started")
            if user_id != table.host_id:
                raise UserError("error.host_starts", host=render.mention(table.host_id))
            if start_player is not None and start_player not in table.seats:
                raise UserError("error.first_not_seated")
            seed = secrets.randbits(63) if self.seed is None else hash_seed(self.seed, table.id)
            game = Game.new(table.seats, table.rules, seed=seed, start_player=start_player)
            thread = await venue(table) if venue is not None else None
            now = self.now()
            deadline = now + table.length_seconds / self.time_scale
            state = game.save()
            record = await self.store.start_game(
                table.id,
                seed=seed,
                start_player=game.active_player,
                state=state,
                deadline=deadline,
                now=now,
                thread_id=thread,
            )
            if thread is not None:
                self._move(table, thread)
            table.game, table.stored, table.status = game, state, record.status
            table.version, table.deadline = record.version, deadline
            table.recent.append(
                t(
                    table.language,
                    "notice.started",
                    length=render.duration(table.length_seconds),
                    player=render.mention(game.active_player),
                )
            )
            self._arm_clock(table)
            for player in game.players:
                self.notifier.hand_changed(table, player, [narration.BEGAN])
            if game.active_player != user_id:
                self.notifier.turn_passed(table, game.active_player)
            self.crew.wake(table)
        return table

    # ---------------------------------------------------------------- actions

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: dict[str, Any],
        *,
        expected_version: int | None = None,
        as_player: bool = True,
        notice: Notice | None = None,
        autopilot: bool = False,
    ) -> ActionResult:
        """Apply one player's action to the channel's game.

        `expected_version` (from a button) refuses an action aimed at an older board.
        `as_player` puts the user into the action as its "player"; moderation actions
        (skip, remove someone else, end) pass False and name their target themselves.
        `notice` (a crewmate's) says why the move was made: it tells the move in public.
        `autopilot`: the move is the autopilot's, refused once the user took their seat back.
        """
        table = self.table_in(channel_id)
        async with _held(table):
            if table.status == "lobby":
                raise UserError("error.not_started")
            if not table.open:  # ended (the clock, a reset) while this waited its turn
                raise UserError("error.over")
            if expected_version is not None and expected_version != table.version:
                raise StaleBoard(table)
            if autopilot and user_id not in table.autopilot:  # their own click came first
                raise StaleBoard(table)
            if self._clock_ran_out(table):
                await self._expire_locked(table)
                raise UserError("error.too_late")
            if as_player:
                action = {**action, "player": user_id}
            return await self._apply_locked(table, action, actor=user_id, notice=notice)

    async def _apply_locked(
        self,
        table: Table,
        action: dict[str, Any],
        actor: int | None,
        notice: Notice | None = None,
    ) -> ActionResult:
        game = table.game
        assert game is not None
        seats = list(game.players)
        try:
            events = game.apply(action)
        except IllegalMove as exc:
            raise UserError.refused(exc) from None
        outcome = game.outcome.value if game.outcome is not None else None
        removed = action["player"] if action["type"] == "remove_player" else None
        host = _next_host(seats, game.players, table.host_id) if removed == table.host_id else None
        now = self.now()
        state = game.save()
        try:
            table.version = await self.store.commit_action(
                table.id,
                table.version,
                state=state,
                actor=actor,
                action=action,
                events=[e.to_dict() for e in events],
                outcome=outcome,
                removed_player=removed,
                host_id=host,
                now=now,
            )
        except Exception as exc:
            # A commit is all or nothing: the game is as stored before it, unless another
            # writer (a process running this shard by mistake) moved the stored game on.
            if isinstance(exc, StaleVersion | WrongStatus):
                self._reload(table, await self.store.get_game(table.id))
                self._report_rival(table)
                raise MovedOn(table) from None
            table.game = Game.restore(table.stored)
            raise
        table.stored = state
        if game.is_over:
            table.history = await self._history(table)
        result = self._after_commit(table, events, now, actor, notice)
        if host is not None:
            table.host_id = host
            line = t(table.language, "notice.new_host", player=render.mention(host))
            result.lines.append(line)
            table.recent.append(line)
            result = dataclasses.replace(result, new_host=host)
        return result

    async def _history(self, table: Table) -> list[dict[str, Any]]:
        """A finished game's logged events, oldest first (its final board sums up its
        launches from them); none when the log cannot be read (the game is saved)."""
        try:
            actions = await self.store.game_log(table.id)
        except Exception as exc:
            log.warning("game %s: its log could not be read for its launches: %s", table.id, exc)
            return []
        return [event for action in actions for event in action.events]

    def _reload(self, table: Table, record: GameRecord) -> None:
        """The table as stored: after a refused write, what the store has is the truth."""
        stored = Table.from_record(record)
        table.game, table.stored = stored.game, stored.stored
        table.version, table.status = stored.version, stored.status
        table.seats, table.deadline, table.remaining = (
            stored.seats,
            stored.deadline,
            stored.remaining,
        )
        if not table.open:
            self._forget(table)
            return
        self._arm_clock(table)
        in_reshuffle = table.game is not None and table.game.phase is Phase.RESHUFFLE
        if in_reshuffle and table.reshuffle_timer is None:
            self._arm_reshuffle(table)

    def _report_rival(self, table: Table) -> None:
        """Another process wrote this game: say so once, naming the shard and the game."""
        if table.id in self._rivals:
            return
        self._rivals.add(table.id)
        shard = self.shards.of(table.guild_id)
        log.error(
            "game %d in channel %d (server %d, shard %d of %d) was changed by another "
            "process: another bot process is running shard %d (check APOPHIS_SHARD_IDS of "
            "every process). This process's write was refused by the version check and "
            "nothing was lost; it reloaded the game as stored.",
            table.id,
            table.channel_id,
            table.guild_id,
            shard,
            self.shards.count,
            shard,
        )

    def _after_commit(
        self,
        table: Table,
        events: list[ev.Event],
        now: float,
        actor: int | None,
        notice: Notice | None = None,
    ) -> ActionResult:
        game = table.game
        assert game is not None
        language = table.language
        told = [(e, line) for e in events if (line := narration.narrate_event(e, language, notice))]
        lines = [line for _, line in told]
        recent = [(e, line) for e, line in told if not isinstance(e, _LAUNCH_DETAIL)]
        narration.tell_recent(table.recent, recent, language)
        table.seats = list(game.players)
        self._tell_report(table, events)
        for player, changes in _hand_changes(events, actor):
            self.notifier.hand_changed(table, player, changes)
            if player != actor:
                self.notifier.panel_changed(table, player)
        if any(isinstance(e, ev.ReshuffleStarted) for e in events):
            self._arm_reshuffle(table)
        elif game.phase is not Phase.RESHUFFLE:
            table.reshuffle_ends = None
        turns = [e.player for e in events if isinstance(e, ev.TurnStarted)]
        for skipped in (e.player for e in events if isinstance(e, ev.TurnSkipped)):
            self.notifier.panel_changed(table, skipped)
        if turns and turns[-1] != actor:
            self.notifier.turn_passed(table, turns[-1])
            self.notifier.panel_changed(table, turns[-1])
        if game.is_over:
            table.remaining = table.time_left(now)
            table.deadline = None
            table.status = "abandoned" if game.outcome.value == "abandoned" else "finished"
            self._forget(table)
            if game.outcome.won:
                left = t(language, "notice.stopped", left=render.duration(table.remaining))
                lines.append(left)
                table.recent.append(left)
            self.notifier.turn_passed(table, None)
            for player in game.players:
                self.notifier.hand_changed(table, player, [])
                self.notifier.panel_changed(table, player)
        self.notifier.board_changed(table)
        return ActionResult(table, events, lines)

    def _tell_report(self, table: Table, events: list[ev.Event]) -> None:
        """A launch starts a report; what follows while it is open continues the same one."""
        game = table.game
        report = table.report
        starts = next((i for i, e in enumerate(events) if isinstance(e, ev.LaunchStarted)), None)
        if starts is not None:
            language = table.language
            launch = [
                line for e in events[starts:] if (line := narration.narrate_event(e, language))
            ]
            public = [e.seen_by(None) for e in events[starts:]]
            table.report = report = Report(launch, language, public)
        elif report is not None and report.open:
            report.lines += [
                line for e in events if (line := narration.narrate_event(e, report.language))
            ]
            report.events += [e.seen_by(None) for e in events]
            report.changes += 1
        else:
            return
        report.open = game.phase is Phase.REROLL and not game.is_over
        self.notifier.report_changed(table)

    # ------------------------------------------------------------- moderation

    async def skip(self, channel_id: int, by: int) -> ActionResult:
        return await self.act(channel_id, by, {"type": "skip_turn"}, as_player=False)

    async def kick(self, channel_id: int, by: int, player: int) -> ActionResult | Table:
        table = self.table_in(channel_id)
        if table.status == "lobby":
            return await self._unseat(
                table,
                player,
                host_refusal="error.host_cannot_be_removed",
                absent="error.member_not_seated",
            )
        if player not in table.seats:
            raise UserError("error.member_not_seated")
        action = {"type": "remove_player", "player": player}
        return await self.act(channel_id, by, action, as_player=False)

    async def end(self, channel_id: int, by: int, reason: str) -> Table:
        """End the channel's lobby or game without a result (recorded as abandoned)."""
        table = self.table_in(channel_id)
        async with _held(table):
            if table.status == "lobby":
                await self._cancel_lobby(table)
                return table
        await self.act(channel_id, by, {"type": "end", "reason": reason}, as_player=False)
        return table

    async def channel_gone(self, channel_id: int) -> Table | None:
        """The channel was deleted: its lobby or game ends at once, as abandoned (the reason
        `CHANNEL_DELETED` in its log), in one transaction; its timers stop now. Retried as
        timers are until saved; the table ended, if the channel had one."""
        table = self.by_channel.get(channel_id)
        if table is None:
            return None
        _stop_timers(table)

        async def close(table: Table) -> None:
            async with table.lock:
                if not table.open:
                    return
                if table.status == "lobby":
                    await self._cancel_lobby(table)
                else:
                    action = {"type": "end", "reason": CHANNEL_DELETED}
                    await self._apply_locked(table, action, actor=None)

        await self._until_saved(close, table, "timer.channel_deleted")
        return table

    async def _cancel_lobby(self, table: Table) -> None:
        """Close a lobby that will not start (abandoned); the game's lock is held."""
        await self.store.cancel_lobby(table.id, now=self.now())
        table.status = "abandoned"
        self._forget(table)
        self.notifier.board_changed(table)

    def restyle(self, guild_id: int, language: str, cards: str) -> None:
        """A server chose another language or card display: its open games show it now."""
        for table in self.tables.values():
            if table.guild_id == guild_id:
                table.language, table.cards = language, cards
                self.notifier.board_outdated(table)
                self.notifier.flush(table)

    # ----------------------------------------------------------------- clocks

    def _clock_ran_out(self, table: Table) -> bool:
        return table.deadline is not None and self.now() >= table.deadline

    def _arm_clock(self, table: Table, warned: int | None = None) -> None:
        """One timer a game: for its next warning (after `warned`) or the end of its time.

        (Thousands of games, each with a timer per warning, kept the event loop's heap
        and the garbage collector's generations needlessly full.)
        """
        for timer in table.timers:
            timer.cancel()
        table.timers.clear()
        if table.deadline is None:
            return
        loop = asyncio.get_running_loop()
        left = table.deadline - self.now()
        for warning in WARNINGS:
            at = left - warning / self.time_scale
            if at > 0 and (warned is None or warning < warned):
                table.timers.append(loop.call_later(at, self._warn, table, warning))
                return
        table.timers.append(
            loop.call_later(max(left, 0), self._spawn, self._expire, table, "timer.countdown")
        )

    def _arm_reshuffle(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        delay = RESHUFFLE_SECONDS / self.time_scale
        table.reshuffle_ends = self.now() + delay
        table.reshuffle_timer = loop.call_later(
            delay, self._spawn, self._reshuffled, table, "timer.reshuffle"
        )

    def _spawn(
        self, fn: Callable[[Table], Coroutine[Any, Any, None]], table: Table, what: str
    ) -> None:
        task = asyncio.create_task(self._until_saved(fn, table, what))
        self._timer_tasks.add(task)
        task.add_done_callback(self._timer_tasks.discard)

    async def _until_saved(
        self, fn: Callable[[Table], Coroutine[Any, Any, None]], table: Table, what: str
    ) -> None:
        """A timer's action, retried with backoff until it is saved or no longer due.

        (`fn` does nothing once the game has ended or moved on.) The channel is told
        once that the game is held up; a failed commit leaves the game as stored.
        """
        for attempt in itertools.count():
            try:
                await fn(table)
                return
            except MovedOn:  # another process had moved the game on: reported, reloaded
                return
            except UserError as exc:  # refused by the rules: trying again changes nothing
                log.error("game %s: %s was refused: %s", table.id, what, exc)
                return
            except Exception as exc:
                delay = TIMER_RETRY_DELAYS[min(attempt, len(TIMER_RETRY_DELAYS) - 1)]
                log.error(
                    "game %s: %s could not be saved (attempt %d); retrying in %g s",
                    table.id,
                    what,
                    attempt + 1,
                    delay,
                    exc_info=exc if attempt == 0 else None,
                )
            if attempt == 0 and table.open:
                self.notifier.post(
                    table, t(table.language, "notice.held_up", what=t(table.language, what))
                )
                self.notifier.flush(table)
            await asyncio.sleep(delay)

    def _warn(self, table: Table, seconds: int) -> None:
        """A warning on the board (its Last actions, and its colour in the last minute)."""
        self._arm_clock(table, warned=seconds)
        if table.open:
            if seconds >= 60:
                line = t(table.language, "notice.minutes_left", count=seconds // 60)
            else:
                line = t(table.language, "notice.seconds_left", count=seconds)
            table.recent.append(line)
            self.notifier.board_changed(table)
            self.notifier.flush(table)

    async def _expire(self, table: Table) -> None:
        async with table.lock:
            if table.open and table.status == "active":
                await self._expire_locked(table)

    async def _expire_locked(self, table: Table) -> None:
        await self._apply_locked(table, {"type": "clock_expired"}, actor=None)
        self.notifier.post(table, t(table.language, "notice.lost"))
        self.notifier.flush(table)

    async def _reshuffled(self, table: Table) -> None:
        async with table.lock:
            table.reshuffle_timer = None
            game = table.game
            if table.open and game is not None and game.phase is Phase.RESHUFFLE:
                await self._apply_locked(table, {"type": "finish_reshuffle"}, actor=None)
                self.notifier.flush(table)  # no interaction answers for it: at once


#: Launch events told in the launch report but left off the board's short history.
_LAUNCH_DETAIL = (
    ev.LaunchStep,
    ev.LaunchStarted,
    ev.RerollOffered,
    ev.RerollUsed,
    ev.RerollDeclined,
)


def _stop_timers(table: Table) -> None:
    """The game's clock, warnings and reshuffle timer stop (none fires any more)."""
    for timer in table.timers:
        timer.cancel()
    table.timers.clear()
    if table.reshuffle_timer is not None:
        table.reshuffle_timer.cancel()
        table.reshuffle_timer = None


@contextlib.asynccontextmanager
async def _held(table: Table) -> AsyncIterator[None]:
    """The game's lock for a player's action, waited for at most LOCK_WAIT seconds: past
    that the player is told the bot is busy, and nothing is done."""
    try:
        async with asyncio.timeout(LOCK_WAIT):
            await table.lock.acquire()
    except TimeoutError:
        raise UserError("error.busy") from None
    try:
        yield
    finally:
        table.lock.release()


def _busy(table: Table) -> UserError:
    key = "error.busy_lobby" if table.status == "lobby" else "error.busy_game"
    return UserError(key, id=table.id)


def _hand_changes(events: list[ev.Event], actor: int | None) -> list[tuple[int, list[Change]]]:
    players: dict[int, None] = {}
    for event in events:
        if isinstance(
            event,
            ev.CardsDrawn
            | ev.CardsDiscarded
            | ev.SectionBuilt
            | ev.SequenceExtended
            | ev.PlayerRemoved,
        ):
            players.setdefault(event.player)
    return [(p, narration.hand_changes(events, p, actor)) for p in players]


def _next_host(seats: list[int], remaining: list[int], host: int) -> int | None:
    """Who hosts after `host` leaves: the next person still seated after them, in seat
    order (never a crewmate: with no person left, the game ends instead)."""
    at = seats.index(host)
    after = seats[at + 1 :] + seats[:at]
    return next((p for p in after if p in remaining and not is_crewmate(p)), None)


def hash_seed(seed: int, game_id: int) -> int:
    """A game's seed from the configured one: distinct per game, the same every run."""
    digest = hashlib.sha256(f"{seed}:{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
