"""The game service: the one place where games change, and the way in for everyone else.

A command handler asks the service to do something to a channel's game. Under that
game's lock the service checks it, applies it to the engine, commits it to the store
(one transaction), and only then publishes what changed (bot.game.announce, on the
stream of bot.game.changes). Every door comes in through `run` (bot.game.commands).
Games never wait on each other: each has its own lock (bot.game.actions). Lobbies
(bot.game.lobbies), timers (bot.game.clocks) and moderation (bot.game.moderation) are
reached through it.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Any

from bot.errors import MovedOn, StaleBoard, UserError
from bot.game.access import Caller, Gatekeeper
from bot.game.actions import ActionResult, held
from bot.game.announce import Announcer
from bot.game.audience import Audience
from bot.game.autopilot import UNATTENDED, UNATTENDED_MOVES, unattended
from bot.game.changes import BoardOutdated, Settled, Stream
from bot.game.clocks import Clocks
from bot.game.commands import Command, Commands, Outcome
from bot.game.crewmates import CrewDriver
from bot.game.idle import IdleLobbies
from bot.game.ledger import Ledger, logged_events
from bot.game.lobbies import Lobbies
from bot.game.mirrors import Mirrors
from bot.game.moderation import Moderation
from bot.game.presence import Presence
from bot.game.relay import Relay
from bot.game.replies import reply
from bot.game.seats import Decided, Seats
from bot.game.tables import Tables
from bot.game.talk import Talk
from bot.game.timer import RealTimer, Timer
from bot.i18n.catalogs import said
from bot.metrics import ABOUT, ACTION_SECONDS, APPLIED, FAILED, REFUSED
from bot.store.records import ALL_SHARDS, GameRecord, Shards, StaleVersion, WrongStatus
from bot.store.store import Store
from bot.table import Notice, Table, is_crewmate
from bot.views import render
from engine import Game, IllegalMove, Phase

log = logging.getLogger(__name__)


class GameService:
    """Lobbies, games and clocks of every channel; see the module docstring."""

    def __init__(
        self,
        store: Store,
        stream: Stream,
        audience: Audience,
        *,
        time_scale: float = 1.0,
        clock: Callable[[], float] = time.time,
        seed: int | None = None,
        shards: Shards = ALL_SHARDS,
        web: bool = False,
        activity: bool = False,
        gatekeeper: Gatekeeper | None = None,
        timer: Timer | None = None,
    ) -> None:
        """`timer` sets every game timer (bot.game.timer: the event loop's by default);
        given, its time is the service's clock (`clock` then unused)."""
        self.store = store
        self.audience = audience
        self.timer: Timer = timer or RealTimer()
        self.now = clock if timer is None else timer.now

        def now() -> float:  # read when asked: a test may set another clock
            return self.now()

        #: What happened to each table, told to whoever subscribed (bot.game.changes).
        self.changes = stream
        #: What players say to their teams (signals), crewmates too.
        self.talk = Talk(store, stream, now)
        #: AI crewmates play through the service, woken by its changes.
        self.crew = CrewDriver(
            stream, self._crewmate_acts, time_scale, now, self.timer, say=self.talk.say
        )
        #: The Discord shards this process runs (named when another process interferes).
        self.shards = shards
        #: `web`: the live table is served, `activity`: as an Activity (bot.game.tables).
        self.registry = Tables(time_scale, stream, web, now, activity=activity)
        self.clocks = Clocks(
            stream, self._apply_locked, now=now, time_scale=time_scale, timer=self.timer
        )
        self.announcer = Announcer(stream, self.registry, self.clocks)
        self._build_lobby_side(store, audience, stream, now, time_scale, seed, gatekeeper)
        #: The games played, as the doors read them (history, replays, records).
        self.ledger = Ledger(store)
        #: Games another process wrote to (each reported once).
        self._rivals: set[int] = set()
        #: Where several processes share the database (set by the core): the others' games
        #: watched here (bot.game.mirrors), and the way to their owners (bot.game.relay).
        self.mirrors: Mirrors | None = None
        self.relay: Relay | None = None
        #: And who watches each table on the others (bot.game.presence).
        self.presence: Presence | None = None

    def _build_lobby_side(
        self,
        store: Store,
        audience: Audience,
        stream: Stream,
        now: Callable[[], float],
        time_scale: float,
        seed: int | None,
        gatekeeper: Gatekeeper | None,
    ) -> None:
        """Lobbies, the idle lobbies' sweep, moderation and the commands of every door."""
        self.lobbies = Lobbies(
            store,
            audience,
            self.registry,
            self.clocks,
            stream,
            now=now,
            seed=seed,
            gatekeeper=gatekeeper,
        )
        #: Lobbies nobody touches close themselves (swept once recovery is done).
        self.idle = IdleLobbies(
            self.registry, self.lobbies, self.clocks, stream, now=now, time_scale=time_scale
        )
        self.moderation = Moderation(
            self.registry, self.lobbies, self.clocks, act=self.act, apply=self._apply_locked
        )
        #: Seats changing hands mid-game (a drop-in, a crewmate for who leaves).
        self.seats = Seats(self.registry, store, act=self.act)
        self.commands = Commands(
            self.registry,
            self.lobbies,
            self.moderation,
            audience,
            stream,
            act=self.act,
            seats=self.seats,
            talk=self.talk,
        )

    # ---------------------------------------------------------------- lookups

    @property
    def tables(self) -> dict[int, Table]:
        """Every open lobby and game, by game id."""
        return self.registry.by_id

    @property
    def by_channel(self) -> dict[int, Table]:
        """Every open lobby and game, by the channel (or thread) it plays in."""
        return self.registry.by_channel

    def table_in(self, channel_id: int) -> Table:
        """The channel's open lobby or game (Tables.table_in)."""
        return self.registry.table_in(channel_id)

    def seen(self, channel_id: int, user_id: int) -> None:
        """Someone clicked or typed something in a channel: if they play its game, the
        autopilot counts from now, and gives them their seat back (bot.game.autopilot)."""
        table = self.by_channel.get(channel_id)
        if table is not None:
            self.crew.autopilot.seen(table, user_id)

    def leaving_mid_game(self, channel_id: int, user_id: int) -> Table | None:
        """The channel's game in play, if `user_id` holds a seat in it: leaving it asks them
        to confirm first (their hand goes to the discard pile)."""
        table = self.by_channel.get(channel_id)
        game = table.game if table is not None and table.status == "active" else None
        return table if game is not None and user_id in game.players else None

    def message_posted(self, channel_id: int, message_id: int) -> None:
        """Someone posted in a channel (a gateway event): count it if it is below a board."""
        table = self.by_channel.get(channel_id)
        if table is not None and message_id > (table.messages.board_id or message_id):
            table.messages.below += 1

    async def board_posted(
        self, table: Table, message_id: int, then: Callable[[], None] | None = None
    ) -> None:
        """A door posted the table's board (or lobby) as `message_id`: it is the board now,
        and `then()` is what the door does at once (the outbox told who may edit it),
        before the board is saved: a board update in between would find the new board
        without its token, and post it again below."""
        table.messages.board_id = message_id
        if then is not None:
            then()
        await self.store.set_board_message(table.id, message_id)

    # ---------------------------------------------------------- server settings

    def set_pictures(self, guild_id: int, on: bool) -> list[Table]:
        """Turn board pictures on or off for a server's games; the tables changed."""
        return self.registry.set_pictures(guild_id, on)

    def set_autopilot(self, guild_id: int, seconds: int) -> None:
        """A server chose its autopilot delay (0: off): its open games follow it now."""
        self.crew.autopilot.configure(guild_id, seconds, list(self.tables.values()))

    def restyle(self, guild_id: int, language: str, cards: str) -> None:
        """A server chose another language or card display: its open games show it now."""
        for table in self.tables.values():
            if table.guild_id == guild_id:
                table.language, table.cards = language, cards
                self.changes.publish(BoardOutdated(table))
                self.changes.publish(Settled(table))

    # --------------------------------------------------------------- recovery

    async def recover(self) -> list[Table]:
        """Start-up: every open game comes back with its clock re-armed where it stopped."""
        self.registry.pictures_off = await self.store.guilds_without_pictures()
        self.crew.autopilot.delays = await self.store.autopilot_delays()
        records = await self.store.resume_clocks(self.now())
        tables = []
        for record in records:
            table = Table.from_record(record)
            table.language, table.cards = await self.audience.table(table)
            self.registry.track(table)
            if table.status == "active":
                self.clocks.arm(table)
                if table.game is not None and table.game.phase is Phase.RESHUFFLE:
                    self.clocks.arm_reshuffle(table)
                self.crew.autopilot.watch(table)
                self.crew.wake(table)
            tables.append(table)
        await self.talk.recover(self.registry.by_id)
        self.idle.start()
        return tables

    def stop_timers(self) -> None:
        """Planned shutdown: no timer may fire while the store freezes the clocks."""
        self.clocks.stop(self.tables.values())
        self.crew.stop()
        self.idle.stop()

    # --------------------------------------------------------------- commands

    async def run(self, caller: Caller, command: Command) -> Outcome:
        """Every door's way in: `command` checked for `caller`, applied, and its outcome
        (bot.game.commands); UserError: refused, and nothing changed. A command for a game
        another process owns is never applied here (`answer` hands it over)."""
        if not self.shards.own(caller.guild_id, caller.channel_id):
            raise UserError("error.owner_away")
        return await self.commands.run(caller, command)

    async def answer(self, caller: Caller, command: Command, language: str) -> str:
        """`command` run for `caller` where its game belongs (here, or handed to the process
        that owns it: bot.game.relay), and what the caller is told, in `language`."""
        if self.relay is not None and not self.shards.own(caller.guild_id, caller.channel_id):
            return await self.relay.ask(caller, command, language)
        return reply(await self.run(caller, command), caller.user_id, language)

    async def channel_gone(self, channel_id: int) -> Table | None:
        """The channel was deleted: its lobby or game ends (Moderation.channel_gone)."""
        return await self.moderation.channel_gone(channel_id)

    # ---------------------------------------------------------------- actions

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: dict[str, Any] | Decided,
        *,
        expected_version: int | None = None,
        as_player: bool = True,
        notice: Notice | None = None,
        autopilot: bool = False,
        name: str | None = None,
    ) -> ActionResult:
        """Apply one player's action to the channel's game.

        `action` may be decided under the game's lock, from the table as it is then
        (`Decided`: a seat to take, bot.game.seats); `name` is the display name of
        whoever sits down by it.

        `expected_version` (from a button) refuses an action aimed at an older board.
        `as_player` puts the user into the action as its "player"; moderation actions
        (skip, remove someone else, end) pass False and name their target themselves.
        `notice` (a crewmate's) says why the move was made: it tells the move in public.
        `autopilot`: the move is the autopilot's, refused once the user took their seat back.
        """
        started = time.perf_counter()
        try:
            table = self.table_in(channel_id)
            ABOUT.set((table.id, table.guild_id))  # for the log lines of this task (bot.app)
            async with held(table):
                if table.status == "lobby":
                    raise UserError("error.not_started")
                if not table.open:  # ended (the clock, a reset) while this waited its turn
                    raise UserError("error.over")
                if expected_version is not None and expected_version != table.version:
                    assert not callable(action)  # (a move from a button)
                    raise StaleBoard.of(table, user_id, action["type"])
                if autopilot and user_id not in table.autopilot:  # their own click came first
                    raise StaleBoard(table)
                if self.clocks.ran_out(table):
                    await self.clocks.expire_locked(table)
                    raise UserError("error.too_late")
                if callable(action):
                    action = action(table)
                if as_player:
                    action = {**action, "player": user_id}
                result = await self._apply_locked(
                    table, action, actor=user_id, notice=notice, autopiloted=autopilot, name=name
                )
        except UserError:
            REFUSED.inc()
            raise
        except Exception:
            FAILED.inc()
            raise
        finally:
            ACTION_SECONDS.observe(time.perf_counter() - started)
        APPLIED.inc()
        return result

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
        abandoned; nor does the autopilot once every person has been on autopilot for
        UNATTENDED_MOVES of its moves (bot.game.autopilot). A move that cannot be saved is
        retried as timers are (the channel is told once that the game is held up), until it
        is saved or no longer possible.
        """
        refused: list[UserError] = []

        async def move(table: Table) -> None:
            if not table.open:
                return
            try:
                if table.game is not None and all(is_crewmate(p) for p in table.game.players):
                    await self.moderation.end(table.channel_id, crewmate, "only_crewmates")
                elif unattended(table) and table.runtime.unattended >= UNATTENDED_MOVES:
                    async with table.runtime.lock:  # nobody is playing: no result
                        if table.open:
                            await self._apply_locked(
                                table, {"type": "end", "reason": UNATTENDED}, None
                            )
                else:
                    if unattended(table):
                        table.runtime.unattended += 1
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

        await self.clocks.until_saved(move, table, "timer.crewmate")
        if refused:
            log.info("crewmate %s in game %s was refused: %s", crewmate, table.id, refused[0])
        return not refused

    async def _apply_locked(
        self,
        table: Table,
        action: dict[str, Any],
        actor: int | None,
        notice: Notice | None = None,
        autopiloted: bool = False,
        name: str | None = None,
    ) -> ActionResult:
        """Apply, commit (one transaction), then announce; the game's lock is held. `autopiloted`:
        the autopilot played the actor's seat; `name`: whoever sits down by it is so called."""
        game = table.started_game
        seats = list(game.players)
        try:
            events = game.apply(action)
        except IllegalMove as exc:
            raise UserError.refused(exc) from None
        outcome = game.outcome.value if game.outcome is not None else None
        removed, seated = seat_changes(action, name)
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
                autopiloted=actor if autopiloted else None,
                seated=seated,
            )
        except Exception as exc:
            # A commit is all or nothing: the game is as stored before it, unless another
            # writer (a process running this shard by mistake) moved the stored game on.
            if isinstance(exc, StaleVersion | WrongStatus):
                self._reload(table, await self.store.get_game(table.id))
                self._report_rival(table)
                raise MovedOn(table) from None
            assert table.stored is not None  # (a game in play was stored when dealt)
            table.game = Game.restore(table.stored)
            raise
        table.stored = state
        table.runtime.last = (actor, action["type"])
        _sat_down(table, removed, seated)
        if game.is_over:
            await self._read_ending(table)
        result = self.announcer.committed(table, events, now, actor, notice)
        if host is not None:
            table.host_id = host
            line = said(table.language, "notice.new_host", player=render.mention(host))
            result.lines.append(line)
            table.recent.append(line)
            result = dataclasses.replace(result, new_host=host)
        return result

    async def _read_ending(self, table: Table) -> None:
        """A finished game's logged events, oldest first, and the firsts earned with it:
        its final board sums up its launches from them and tells the firsts; none when they
        cannot be read (the game is saved)."""
        try:
            actions = await self.store.game_log(table.id)
            firsts = await self.store.game_firsts(table.id)
        except Exception as exc:
            log.warning("game %s: its log or firsts could not be read: %s", table.id, exc)
            return
        table.history, table.firsts = logged_events(actions), firsts

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
            self.registry.forget(table)
            return
        self.clocks.arm(table)
        in_reshuffle = table.game is not None and table.game.phase is Phase.RESHUFFLE
        if in_reshuffle and table.runtime.reshuffle_timer is None:
            self.clocks.arm_reshuffle(table)

    def _report_rival(self, table: Table) -> None:
        """Another process wrote this game: say so once, naming the shard and the game."""
        if table.id in self._rivals:
            return
        self._rivals.add(table.id)
        shard = self.shards.home_of(table.guild_id, table.channel_id)
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


def seat_changes(
    action: dict[str, Any], name: str | None
) -> tuple[int | None, tuple[int, str | None] | None]:
    """Whose seat an action frees (a player removed, or whose seat someone took) and who
    sits down by it, with their display name (the store records both with the action)."""
    if action["type"] == "remove_player":
        return action["player"], None
    if action["type"] == "take_seat":
        return action.get("seat_of"), (action["player"], name)
    return None, None


def _sat_down(table: Table, left: int | None, seated: tuple[int, str | None] | None) -> None:
    """A seat changed hands (`seated` sat down, in `left`'s seat if anyone's): the board names
    who sat down, and whoever left is no longer on autopilot."""
    if seated is not None:
        player, name = seated
        if name:
            table.names[player] = name
        table.autopilot.discard(left or 0)


def _next_host(seats: list[int], remaining: list[int], host: int) -> int | None:
    """Who hosts after `host` leaves: the next person still seated after them, in seat
    order (never a crewmate: with no person left, the game ends instead)."""
    at = seats.index(host)
    after = seats[at + 1 :] + seats[:at]
    return next((p for p in after if p in remaining and not is_crewmate(p)), None)
