"""The outbox: what the games show besides interactions' answers, as it hears their changes.

Board edits, launch reports, turn pings, panel refreshes, channel posts and hand DMs
are jobs, coalesced by key (a board is edited once with its latest state however many
actions happened meanwhile) and retried later when Discord asks us to slow down or
has a passing fault. Jobs caused by an interaction wait for its answer (bot.discord.jobs),
so that its fresh token can carry them (bot.discord.channel). Hand DMs (bot.discord.dms)
always spend the global budget: they queue in a lane of their own, paced by one token
bucket, so their backlog never holds the rest back.

The outbox composes what does the work: the board's writing (bot.discord.board), launch
reports, posts and the sweep at a game's end (bot.discord.posts), turn pings
(bot.discord.pings), players' panels (bot.discord.panels), and what waits for a channel
that refuses the bot (bot.discord.parking). A game in a thread of its own
(bot.discord.threads) is followed there like in a channel; its lobby's channel gets its
result, and the thread is archived, once its final board is shown. Nothing is sent to a
deleted channel, and its game ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.config import GLOBAL_RATE
from bot.discord.access import (
    Access,
    Gone,
    NoFiles,
    Refused,
    Unreachable,
    in_thread,
    lacking,
    named,
)
from bot.discord.board import Boards
from bot.discord.channel import GameChannel
from bot.discord.dms import HandDMs
from bot.discord.jobs import Job, Jobs, RateLimiter
from bot.discord.panels import Panels
from bot.discord.parking import Parking
from bot.discord.pings import Pings
from bot.discord.posts import Posts
from bot.discord.rest import Rest
from bot.discord.threads import Threads
from bot.discord.tokens import EPHEMERAL, Owned, Token, Tokens
from bot.game import changes
from bot.game.access import INTERACTIONS
from bot.game.timer import RealTimer, Timer
from bot.i18n.catalogs import language_of, t
from bot.table import is_crewmate
from bot.views.message import Message

if TYPE_CHECKING:
    from bot.game.audience import Audience
    from bot.store.store import Store
    from bot.table import Change, Report, Table

log = logging.getLogger(__name__)

#: The outbox's queues, hand DMs (always paced by the global budget) apart from the rest,
#: and the requests each has in flight at once. Tables go through interaction tokens, out
#: of the global budget: at Discord's round trip of about 100 ms, 2,500 busy games ask
#: for some 2,000 a second. DMs wait for the budget (45 a second) anyway.
LANES = {"tables": 256, "dms": 8}
#: Seconds a click on the board waits for the board's write under way before its answer
#: draws the board (Discord wants an answer within 3 s).
BOARD_WAIT = 1.0
#: Seconds after a game's end before its tokens and records are forgotten.
FORGET_AFTER = 60.0


class Outbox:
    """Coalescing, rate-limited sender of what the games cause (module docstring)."""

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        audience: Audience,
        *,
        rate: float = GLOBAL_RATE,
        clock: Callable[[], float] = time.monotonic,
        timer: Timer | None = None,
        gone: Callable[[int], None] = lambda channel_id: None,
    ) -> None:
        """`timer`: the game's time, on which turn pings wait (the event loop's unless
        given); `gone(channel_id)` is told when Discord answers that a game's channel is
        unknown."""
        self.client = client
        self.store = store
        self.audience = audience
        self._clock = clock
        self.access = Access(client)
        self.limiter = RateLimiter(rate)
        self.rest = Rest(client)
        self.tokens = Tokens(client, self.rest, lambda: self.clock())
        #: Games' threads of their own: opened as they start, closed as they end.
        self.threads = Threads(client.http, self.tokens, spend=lambda: self._spend())
        self.dms = HandDMs(
            self.rest,
            client,
            store,
            audience,
            spend=lambda: self._spend(),
            tell_channel=self.post,
            clock=lambda: self.clock(),
        )
        # Hand DMs (always paced by the global budget) queue apart from the rest.
        self.jobs = Jobs(
            LANES,
            lambda key: "dms" if key[0] == "dm" else "tables",
            quiet=lambda key: key[0] == "post",
        )
        self._post_seq = 0
        self.channel = self._game_channel(gone)
        self.parking = Parking(self.access, self.tokens, self.dms, audience, submit=self._submit)
        self.posts = Posts(
            self.channel, submit=self._submit, park=self.parking.park, swept=self._forget_later
        )
        self.boards = self._boards(store)
        self.pings = Pings(
            self.channel,
            store,
            later=(timer or RealTimer()).call_later,
            ring=self._ring,
            park=self.parking.park,
        )
        self.panels = Panels(self.tokens, audience, changed=self.panel_changed)

    def _game_channel(self, gone: Callable[[int], None]) -> GameChannel:
        """Requests to the games' channels, on the outbox's budget and tokens (a board's
        own token among them); `gone` as for the outbox."""
        return GameChannel(
            self.client.http,
            self.tokens,
            self.access,
            spend=lambda: self._spend(),
            board_token=lambda table: getattr(self.boards.owner(table), "token", None),
            gone=gone,
            no_files=lambda table: self._learn_files(table, False),
        )

    def _boards(self, store: Store) -> Boards:
        """The games' board messages, written on the game's channel; what a game posted is
        swept once its final board is shown."""
        return Boards(
            self.channel,
            self.tokens,
            store,
            self.threads,
            submit=self._submit,
            sweep_later=self.posts.sweep_later,
            learn_files=lambda table: self._learn_files(table, redraw=False),
        )

    @property
    def clock(self) -> Callable[[], float]:
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:  # tests move time on
        self._clock = clock

    # ------------------------------------------------- what the service tells

    def heard(self, change: changes.TableChange) -> None:
        """A change on the service's stream: what players should see of it, queued (what is
        meant for a crewmate, or for a seat the autopilot plays, is not sent)."""
        table = change.table
        match change:
            case changes.BoardChanged() | changes.LobbyChanged():
                self.board_changed(table)
            case changes.BoardOutdated():
                self.board_outdated(table)
            case changes.HandChanged(player=player) if not is_crewmate(player):
                self.hand_changed(table, player, change.changes)
            case changes.PanelChanged(player=player) if not is_crewmate(player):
                self.panel_changed(table, player)
            case changes.TurnPassed(player=player):
                played = player is not None and (is_crewmate(player) or player in table.autopilot)
                self.turn_passed(table, None if played else player)
                self.turn_named(table)
            case changes.ReportChanged():
                self.report_changed(table)
            case changes.Posted(content=content):
                self.post(table, content)
            case changes.Settled():
                self.flush(table)

    def board_changed(self, table: Table) -> None:
        """The board of `table` should show its latest state (once it is over, what the
        game posted while it ran is deleted)."""
        self._hold(table, ("board", table.id), lambda: self.boards.show(table))
        if not table.open:
            self._hold(table, ("sweep", table.id), lambda: self.posts.sweep(table))

    def board_outdated(self, table: Table) -> None:
        """Redraw the board of `table` although its state did not change (a setting did)."""
        self.boards.outdated(table.id)
        self.board_changed(table)

    def hand_changed(self, table: Table, player: int, changes: list[Change]) -> None:
        """`player`'s DM should show their latest hand and what changed (none where the
        game is reached through interactions alone: the hand is in the player's panel).
        Sent once the action is answered: if the player's panel shows the hand by then
        (the answer, or a refresh through its token), the DM only points to it."""
        if table.reach == INTERACTIONS:
            return
        if self.dms.changed(table, player, changes):
            key = ("dm", table.id, player)
            self._hold(table, key, lambda: self._hand(table, player), in_channel=False)

    async def _hand(self, table: Table, player: int) -> None:
        """The player's hand where they see it: their panel if it can show it (a DM that
        says so), else their DM. A game's end is always told in the DM."""
        game = table.game
        over = not table.open or game is None or game.is_over or player not in game.players
        if not over and await self.panels.refresh(table, player):
            await self.dms.point(table, player)
        else:
            await self.dms.send(table, player)

    def panel_changed(self, table: Table, player: int) -> None:
        """`player`'s panel should be redrawn (their turn came, or a change not theirs)."""
        key = ("panel", table.id, player)
        self._hold(table, key, lambda: self._refresh_panel(table, player))

    async def _refresh_panel(self, table: Table, player: int) -> None:
        """Redraw `player`'s panel (whether it then shows their hand is for their DM to know:
        `_hand`)."""
        await self.panels.refresh(table, player)

    def turn_named(self, table: Table) -> None:
        """Whose turn it is changed: every live panel is redrawn to name the player to act
        now (the one whose turn came says it is theirs)."""
        for player in self.panels.holding(table):
            self.panel_changed(table, player)

    def turn_passed(self, table: Table, player: int | None) -> None:
        """It is `player`'s turn: pinged if it waits long for them (None: nobody's, or a
        crewmate's; the standing ping comes down). No ping where the game is reached
        through interactions alone: the board says whose turn it is."""
        if table.reach == INTERACTIONS:
            return
        self.pings.due(table, player)
        self._hold(table, ("ping", table.id), lambda: self.pings.ping(table))

    def _ring(self, table: Table) -> None:
        """A turn waited long enough for its player (bot.discord.pings): pinged at once."""
        self._hold(table, ("ping", table.id), lambda: self.pings.ping(table))
        self.flush(table)

    def report_changed(self, table: Table) -> None:
        """The launch report (`table.report`) should show its latest lines."""
        self._hold(table, ("report", table.id), lambda: self.posts.write_report(table))

    def post(self, table: Table, content: str) -> None:
        """A message in the game's channel (deleted when the game ends, unless it is
        posted after the end: the result)."""
        self._post_seq += 1
        key = ("post", self._post_seq)
        during = table.open
        self._hold(table, key, lambda: self._send_post(table, content, during))

    def flush(self, table: Table) -> None:
        """No interaction will answer for what was just queued (a timer): send it now."""
        self.jobs.release(table.id)

    def fresh_board(self, table: Table, notice: Callable[[], str]) -> None:
        """Post a new board message (after a restart) instead of editing the old one, with
        `notice()` (worded when it is sent) as its content.

        The old board stays the game's board until then (a click on it still plays)."""
        self.boards.fresh(table.id)
        self._submit(("board", table.id), lambda: self.boards.write(table, notice))

    def moved(self, table: Table, *, lobby_shown: bool) -> None:
        """The game moved to its own thread as it started (bot.discord.threads): what the
        outbox kept of its lobby's channel goes (its tokens post there), and the lobby message
        becomes the line pointing to the thread, unless the start's answer made it so."""
        lobby = self.boards.moved(table.id)
        self.channel.forget(table.id)
        if not lobby_shown:
            self._submit(("lobby", table.id), lambda: self.threads.point(table, lobby))

    def channel_gone(self, channel_id: int) -> None:
        """The channel was deleted: nothing more is sent there, what waited for it is dropped."""
        self.access.forget(channel_id)
        self.parking.drop(channel_id)

    def permissions_changed(self, guild_id: int) -> None:
        """A server's channels or roles changed: a channel that refused the bot and lets it
        in now gets what waited for it."""
        for table in self.access.refusing(guild_id):
            if self.access.recheck(table) is not None:  # what it may do now goes
                self.parking.unpark(table.channel_id)

    def set_pings(self, guild_id: int, on: bool) -> None:
        self.pings.set(guild_id, on)

    # ------------------------------------------- what the interaction handlers call

    def answered(
        self,
        table: Table,
        interaction: discord.Interaction,
        *,
        panel_of: tuple[int, int] | None = None,
        board: tuple[int, int] | None = None,
        report: Report | None = None,
        posted: int | None = None,
        deferred: int | None = None,
    ) -> None:
        """An interaction in `table`'s channel was answered: its token may carry what follows.

        `panel_of`: its response is that (player's panel, showing that version).
        `board`: its response is that message, showing the board at that version (the
        board message, unless the board was posted again below meanwhile).
        `report`: its response is the launch report (showing its latest lines).
        `posted`: its response is this message for everyone (a skip, a kick), deleted with
        the game's other traffic when the game ends.
        `deferred`: a click on the board message (this one) answered without redrawing it,
        as a write of it was under way (`board_landed`): the next write draws it, through
        the click's token, after the one under way has landed.
        """
        token = self.tokens.new(interaction)
        self.channel.fresh[table.id] = token
        self._check_access(table, interaction, token)
        if self.pings.seen(table, interaction.user.id):  # their ping comes down
            self._hold(table, ("ping", table.id), lambda: self.pings.ping(table))
        if panel_of is not None:
            player, version = panel_of
            self.panels.shown(table, player, version, interaction, token)
        if board is not None:
            message_id, version = board
            live = self.boards.shown(table, Owned(message_id, token), version)
            if live and version < 0:  # the lobby, redrawn by the response: nothing to edit
                self.jobs.drop(table.id, ("board", table.id))
        if deferred is not None:
            self.boards.adopt(table, Owned(deferred, token))
        if report is not None and interaction.message is not None:
            self.posts.report_shown(table, report, Owned(interaction.message.id, token))
        if posted is not None:
            self.posts.sweep_later(table, Owned(posted, token))
        self.jobs.release(table.id)

    async def follow_with_panel(
        self,
        table: Table,
        interaction: discord.Interaction,
        message: Message,
        *,
        board: tuple[int, int],
    ) -> None:
        """A move pressed on the board was answered by redrawing it (`board`: its message and
        the version it shows): the presser's panel (`message`, showing the game now) follows
        as a private follow-up of the same interaction, where they clicked, and becomes their
        live panel. If Discord refuses it, the move stands (logged): their DM carries the
        hand. The panel has a token of its own: a dismissed panel's 404 leaves the board's."""
        own = self.tokens.new(interaction)
        payload = message.json(new=True)
        payload["flags"] = payload.get("flags", 0) | EPHEMERAL
        player = interaction.user.id
        landing = self.panels.follow(
            table, player, interaction, own, lambda: self.tokens.follow_up(own, payload)
        )
        self.answered(table, interaction, board=board)  # (their DM waits for the panel)
        try:
            await landing
        except discord.HTTPException as exc:
            log.warning("game %d: a board move's panel could not follow: %s", table.id, exc)
        # Their older panel is removed at once, alone: releasing all the game holds could
        # send another player's DM before that player's own answer shows their panel.
        self._submit(("panel", table.id, player), lambda: self._refresh_panel(table, player))

    async def board_landed(self, table: Table) -> bool:
        """Whether the board's write under way, if any, has landed (waited for up to
        `BOARD_WAIT` seconds): else a response drawing the board now could land before
        that older drawing, which would then show an outdated lobby or board."""
        return await self.boards.landed(table.id, BOARD_WAIT)

    def board_moved(
        self,
        table: Table,
        old_message_id: int | None,
        interaction: discord.Interaction,
        board: tuple[int, int],
    ) -> None:
        """`/board` posted the board again below (its response, `board`: that message, and
        the version it shows): the old one becomes a stub."""
        old = self.boards.old_owner(table.id)
        table.messages.below = 0
        self.answered(table, interaction, board=board)
        self.boards.reposted(table, old_message_id, old)

    def old_board_clicked(self, table: Table, message_id: int) -> None:
        """A click came from `message_id`, an older board still showing its buttons (one
        from before a restart): it becomes the one-line link to the live board."""
        self._submit(("stub", message_id), lambda: self.boards.stub(table, message_id, None))

    async def drain(self) -> None:
        """Wait until nothing is queued, held, waiting for a retry or being sent (tests
        and shutdown)."""
        await self.jobs.drain()

    async def close(self, timeout: float = 5.0) -> None:
        """Send what is queued (for at most `timeout` seconds), then stop (no turn waits
        to ping any more)."""
        self.pings.stop()
        await self.jobs.close(timeout)
        self.rest.close()

    # ------------------------------------------------------------- machinery

    def _hold(self, table: Table, key: tuple, job: Job, *, in_channel: bool = True) -> None:
        """Hold `job` until the game's interaction is answered; dropped once the game's
        channel is gone, unless it is not sent there (`in_channel` False: a DM)."""
        self.jobs.hold(table.id, key, self._guarded(key, job, table if in_channel else None))

    def _submit(self, key: tuple, job: Job) -> None:
        self.jobs.submit(key, self._guarded(key, job))

    def _guarded(self, key: tuple, job: Job, table: Table | None = None) -> Job:
        """`job`, unless its game's channel was deleted; parked when its channel refuses
        the bot (sent once it may, bot.discord.parking)."""

        async def guarded() -> None:
            if table is not None and self.access.gone(table.channel_id):
                return
            try:
                await job()
            except Unreachable as unreachable:
                if not unreachable.given_up:
                    self.parking.park(unreachable.table, key, job)
            except Refused as refused:
                self.parking.park(refused.table, key, job)
            except (Gone, NoFiles):
                pass

        return guarded

    async def _spend(self) -> None:
        """Wait for a share of the global budget, before a request that counts against it."""
        await self.limiter.acquire()

    async def _send_post(self, table: Table, content: str, during: bool) -> None:
        await self.posts.send(table, content, during)
        if self.threads.reopened(table):  # posted after its thread closed: it closes again
            self._submit(("board", table.id), lambda: self.boards.show(table))

    def _check_access(self, table: Table, interaction: discord.Interaction, token: Token) -> None:
        """What an interaction says the bot may do in its channel: a refusal is noted and
        whoever interacted told once, privately; what waited goes with its token (where the
        game is reached through interactions alone, tokens carry everything: no refusal)."""
        if table.reach == INTERACTIONS:
            self.parking.unpark(table.channel_id)
            return
        self._learn_files(table, interaction.app_permissions.attach_files)
        missing = lacking(interaction.app_permissions, thread=in_thread(interaction.channel))
        if missing:
            self.access.note(table, missing)
            user = interaction.user.id
            if self.access.first_time_for(table.channel_id, user, "here"):
                language = language_of(interaction.locale)
                text = t(language, "access.refused", missing=named(missing, language))
                payload = Message(content=text).json() | {"flags": EPHEMERAL}
                key = ("refused", table.id, user)
                self._hold(table, key, lambda: self.parking.tell_privately(token, payload))
        else:
            self.access.allowed(table.channel_id)
        self.parking.unpark(table.channel_id)

    def _learn_files(self, table: Table, allowed: bool | None = None, redraw: bool = True) -> None:
        """What the channel says of Attach Files (`allowed`, else the gateway's record): when
        it stops allowing it, the board (unless being drawn: `redraw` False) and the launch
        report are redrawn in words and the channel is told once; when it allows it again,
        the pictures come back."""
        change = self.access.files(table, allowed)
        if change is None:
            return
        table.files = change
        if not change:
            self.post(table, t(table.language, "access.no_files"))
        if redraw:
            self.board_outdated(table)
        self.report_changed(table)

    def _forget_later(self, table: Table) -> None:
        asyncio.get_running_loop().call_later(FORGET_AFTER, self._forget, table.id)

    def _forget(self, game_id: int) -> None:
        parts = (self.boards, self.channel, self.panels, self.posts, self.pings, self.threads)
        for part in (*parts, self.parking):
            part.forget(game_id)
