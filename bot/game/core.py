"""The game core: the store, the games and their clocks, recovery and shutdown, door or none.

It holds the store handle (opened by bot.app, or at `start` when none was given), who reads
in which language (`audience`), the stream of changes every door hears (`stream`), and the
game service the doors run their commands through (`run`). `start` brings every open game
of this process's shards back (`recovered`), and beats in the store every
HEARTBEAT_SECONDS, so that a process killed without a word resumes its clocks from the
last beat; `stop` stops the timers and freezes the running clocks where they are. It
starts and stops on its own: a process may serve it through Discord's messages, the live
table, both, or neither (bot.game.doors).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.game.audience import Audience
from bot.game.changes import Stream
from bot.game.commands import Command, Outcome
from bot.game.mirrors import Mirrors
from bot.game.presence import Presence
from bot.game.relay import Relay
from bot.game.service import GameService
from bot.store.records import ALL_SHARDS, Shards
from bot.store.store import Store

if TYPE_CHECKING:
    from bot.game.access import Caller, Gatekeeper
    from bot.game.timer import Timer
    from bot.table import Table

log = logging.getLogger(__name__)

#: How often the process tells the store it is alive (the clocks of a process killed
#: without a word resume from its last beat).
HEARTBEAT_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Settings:
    """What the core is told by the configuration (bot.config.Config)."""

    #: Where the store is, when the core opens it itself (bot.app usually opens it first).
    database: str
    #: The shards whose games this process owns.
    shards: Shards = ALL_SHARDS
    time_scale: float = 1.0
    seed: int | None = None
    #: Whether the live table is served, and opens as an Activity (else as a browser's
    #: link): the lobbies and boards that can open it offer it.
    web: bool = False
    activity: bool = False
    #: Whether other processes share the database (APOPHIS_PROCESSES above 1, a standby, or
    #: shards of its own): this one tells them of its games and hears theirs (bot.game.relay).
    shared: bool = False


class GameCore:
    """The store, the service, recovery, the heartbeat and shutdown (module docstring)."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        gatekeeper: Gatekeeper | None = None,
        timer: Timer | None = None,
    ) -> None:
        """`timer`: the game's time (bot.game.timer), the event loop's unless given."""
        self.settings = settings
        self.timer = timer
        #: Who may do what where, for the doors that do not carry Discord's permissions.
        self.gatekeeper = gatekeeper
        self._store = store
        #: Every change of every table, heard by each door (and the service's own parts).
        self.stream = Stream()
        self._service: GameService | None = None
        self._audience: Audience | None = None
        #: The open games and lobbies brought back by `start`, in the store's order.
        self.recovered: list[Table] = []
        self._heartbeat: asyncio.Task[None] | None = None
        #: Whether the database failed `ready` last time (logged once until it recovers).
        self._unready = False
        self._started = False
        self._stopped = False

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the database is not open yet")
        return self._store

    @property
    def service(self) -> GameService:
        assert self._service is not None, "the core's service is built by start()"
        return self._service

    @property
    def audience(self) -> Audience:
        assert self._audience is not None, "the core's audience is built by start()"
        return self._audience

    @property
    def serving(self) -> bool:
        """Whether the games are served: started, and not stopped yet."""
        return self._started and not self._stopped

    async def run(self, caller: Caller, command: Command) -> Outcome:
        """A door's command for `caller` (GameService.run): its outcome, or UserError."""
        return await self.service.run(caller, command)

    async def start(self) -> None:
        """Open the store if none was given, build the service, bring every open game back
        with its clock re-armed where it stopped, and beat. Once only."""
        if self._started:
            return
        self._started = True
        if self._store is None:
            self._store = await Store.open(self.settings.database, self.settings.shards)
        self._audience = Audience(self._store)
        self._service = GameService(
            self._store,
            self.stream,
            self._audience,
            time_scale=self.settings.time_scale,
            seed=self.settings.seed,
            shards=self.settings.shards,
            web=self.settings.web,
            activity=self.settings.activity,
            gatekeeper=self.gatekeeper,
            timer=self.timer,
        )
        self.recovered = await self._service.recover()
        log.info("resumed %d open games", len(self.recovered))
        if self.settings.shared:
            await self._join_the_others(self._service)
        self._heartbeat = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        """Planned shutdown: no timer fires any more, and the running clocks stop where they
        are. It always completes: clocks that cannot be frozen (a full disk) keep running
        in the store, and the next start resumes them as after a crash, from the last
        heartbeat. Once only; the store stays open for the doors' last words (`close`)."""
        if self._stopped or not self._started:
            self._stopped = True
            return
        self._stopped = True
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        if self._service is None:  # the store did not open
            return
        self._service.stop_timers()
        try:
            frozen = await self.store.freeze_clocks(self._service.now())
            log.info("froze %d running clocks", frozen)
        except Exception:
            log.exception(
                "could not freeze the clocks: the next start resumes them as after "
                "a crash, from the last heartbeat"
            )

    async def close(self) -> None:
        """After `stop` and the doors' own: close the store."""
        service = self._service
        if service is not None and service.presence is not None:
            await service.presence.close()
        if service is not None and service.relay is not None:
            await service.relay.close()
        if self._store is not None:
            await self._store.close()

    async def _join_the_others(self, service: GameService) -> None:
        """Tell the processes sharing the database of this one's games, hear of theirs, and
        take the commands handed to this one's shards (bot.game.relay)."""
        notices = await self.store.notices()
        if notices is None:  # (SQLite: refused by the configuration already)
            return
        service.relay = relay = Relay(notices, self.settings.shards, service.answer)
        service.mirrors = mirrors = Mirrors(
            self.store, self.audience, self.settings.shards, service.registry
        )
        relay.heard_game, notices.reconnected = mirrors.heard, mirrors.reconnected
        self.stream.subscribe(relay.heard)
        await relay.start()
        service.presence = presence = Presence(notices, relay.node)
        relay.watched = presence.watched_elsewhere

        def arrived(channel: int) -> None:  # told at once: it may have changed since read
            for table in [
                service.by_channel.get(channel),
                *service.registry.in_threads_of(channel),
            ]:
                if table is not None:
                    relay.tell(table)

        presence.arrived = arrived
        await presence.start()

    async def ready(self) -> None:
        """Whether the database can take the games' writes now (the bot's readiness, and
        each heartbeat): raises why not (Store.ready). The first failure is logged at ERROR,
        once until the database takes them again."""
        try:
            await self.store.ready()
        except Exception as exc:
            if not self._unready:
                log.error("the database cannot take the games' writes: %s", exc)
            self._unready = True
            raise
        if self._unready:
            log.info("the database takes the games' writes again")
        self._unready = False

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.store.touch_alive(self.service.now())
            except Exception:
                log.exception("heartbeat failed")
            with contextlib.suppress(Exception):  # logged by ready itself
                await self.ready()
