"""The outbox: everything players see that is not the answer to their own interaction.

Board edits, launch reports, turn pings, panel refreshes, channel posts and hand DMs
are jobs, coalesced by key (a board is edited once with its latest state however many
actions happened meanwhile) and retried later when Discord asks us to slow down or
has a passing fault.

What a player waits for goes through interaction tokens (bot.discord.tokens), outside
Discord's global budget of 50 requests a second: the board through the token of the
interaction that posted it or last updated it, reports, pings and posts as follow-ups
of the latest interaction in the game, a player's panel through that player's latest
interaction. Jobs caused by an interaction wait for its answer (bot.discord.jobs), so that its
fresh token can carry them. The channel routes, which spend the budget, are
the fallback when no token is usable; when the board's own token has expired, the
board is posted again below as a follow-up instead (and when more than
`REPOST_AFTER` messages were posted below it), the old one becoming a one-line stub.

Hand DMs (bot.discord.dms) always spend the budget: they queue in a lane of their own, paced
by one token bucket, so their backlog never holds the rest back.

A player whose turn comes is pinged only when they did nothing in the game for
`IDLE_BEFORE_PING` seconds, and at most once every `PING_EVERY` seconds (game seconds: a
demo's time scale shortens both); otherwise their panel, redrawn for their turn, says
it at its top. A ping is taken down once they interact or the turn moves on. Each player
has one live panel: opening a newer one turns the older into a one-line pointer. When a
game ends, what it posted in the channel while it ran (launch reports, notices, older
boards' stubs) is deleted: its final board, which sums up the launches, and what was
posted after the end (the result) stay. (Of what was posted before a restart, which is
kept in memory only, only the board from before it is known, and deleted.)

A channel that refuses the bot (bot.discord.access) gets no request through the channel
routes: what needed one waits, parked by key, and is sent through the next interaction's
token there, or once the permissions come back; the players are told once by DM, whoever
interacts there once privately. Nothing is sent to a deleted channel, and its game ends.

A game in a thread of its own (bot.discord.threads) is followed there like in a channel;
its lobby's channel gets its result, and the thread is archived, once its final board is
shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import discord
from discord.http import Route

from bot.config import GLOBAL_RATE
from bot.discord.access import (
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    UNKNOWN_CHANNEL,
    Access,
    ChannelUnusable,
    Gone,
    NoFiles,
    Refused,
    blocks,
    in_thread,
    lacking,
    named,
)
from bot.discord.dms import HandDMs
from bot.discord.jobs import Job, Jobs, RateLimiter
from bot.discord.threads import Threads
from bot.discord.tokens import EPHEMERAL, Owned, Token, Tokens
from bot.i18n.catalogs import language_of, t
from bot.table import is_crewmate
from bot.views import attachments, components, panel, render
from bot.views.attachments import Picture
from bot.views.message import Message
from engine import Phase

if TYPE_CHECKING:
    from bot.game.audience import Audience
    from bot.store.store import Store
    from bot.table import Change, Report, Table

log = logging.getLogger(__name__)

#: Discord's error for editing a message that is over an hour old too often.
TOO_OLD_TO_EDIT = 30046
#: The outbox's queues, hand DMs (always paced by the global budget) apart from the rest,
#: and the requests each has in flight at once. Tables go through interaction tokens, out
#: of the global budget: at Discord's round trip of about 100 ms, 2,500 busy games ask
#: for some 2,000 a second. DMs wait for the budget (45 a second) anyway.
LANES = {"tables": 256, "dms": 8}
#: Messages posted below the board after which its next update posts it again below.
REPOST_AFTER = 10
#: Seconds after a game's end before its tokens and records are forgotten.
FORGET_AFTER = 60.0
#: Game seconds a player must have done nothing in the game before their turn pings them.
IDLE_BEFORE_PING = 30.0
#: Game seconds at least between two pings of one player.
PING_EVERY = 60.0


@dataclass(slots=True)
class Panel:
    """A player's live panel: the token whose original response it is, and the id of the
    interaction that opened it (a click on the panel names it in its metadata)."""

    token: Token
    opened_by: int


@dataclass(slots=True)
class Ping:
    """The game's standing turn ping: whom it pinged, its message, and whether they
    interacted since (then it comes down)."""

    player: int
    message: Owned
    heard: bool = False


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
        gone: Callable[[int], None] = lambda channel_id: None,
    ) -> None:
        """`gone(channel_id)` is told when Discord answers that a game's channel is unknown."""
        self.client = client
        self.store = store
        self.audience = audience
        self._clock = clock
        self._gone = gone
        self.access = Access(client)
        #: game id -> (its table, what waits for its channel to let the bot in, by key).
        self._parked: dict[int, tuple[Table, dict[tuple, Job]]] = {}
        self.limiter = RateLimiter(rate)
        self.tokens = Tokens(client, lambda: self.clock())
        #: Games' threads of their own: opened as they start, closed as they end.
        self.threads = Threads(client.http, self.tokens, spend=lambda: self._spend())
        self.dms = HandDMs(
            client.http,
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
        #: game id -> the latest version of a started game the board shows.
        self._board_written: dict[int, int] = {}
        #: game id -> (board message id, its picture's file name, that attachment's id), when
        #: this outbox uploaded the picture the board shows.
        self._board_pictures: dict[int, tuple[int, str, int]] = {}
        #: game id -> the board message and the token that may edit it.
        self._board_owners: dict[int, Owned] = {}
        #: game id -> the token of the latest interaction answered in the game.
        self._fresh: dict[int, Token] = {}
        #: game id -> player -> their live panel.
        self._panels: dict[int, dict[int, Panel]] = {}
        self._panel_versions: dict[int, dict[int, int]] = {}
        #: game id -> player -> the tokens of their older panels, to turn into pointers.
        self._moved: dict[int, dict[int, list[Token]]] = {}
        #: game id -> (report, its message) of the current launch.
        self._reports: dict[int, tuple[Report, Owned | None]] = {}
        #: game id -> the player whose turn just came (None: nobody's, the game is over).
        self._ping_due: dict[int, int | None] = {}
        self._pings: dict[int, Ping] = {}
        self._pings_on: dict[int, bool] = {}
        #: game id -> player -> when (the outbox's clock) they last interacted in the game,
        #: and when they were last pinged.
        self._seen: dict[int, dict[int, float]] = {}
        self._pinged: dict[int, dict[int, float]] = {}
        #: game id -> message id -> what the game posted that goes when it ends.
        self._litter: dict[int, dict[int, Owned]] = {}

    @property
    def clock(self) -> Callable[[], float]:
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:  # tests move time on
        self._clock = clock

    # ------------------------------------------------- what the service calls

    def board_changed(self, table: Table) -> None:
        """The board of `table` should show its latest state (once it is over, what the
        game posted while it ran is deleted)."""
        self._hold(table, ("board", table.id), lambda: self._show_board(table))
        if not table.open:
            self._hold(table, ("sweep", table.id), lambda: self._sweep(table))

    def board_outdated(self, table: Table) -> None:
        """Redraw the board of `table` although its state did not change (a setting did)."""
        self._board_written.pop(table.id, None)
        self.board_changed(table)

    def hand_changed(self, table: Table, player: int, changes: list[Change]) -> None:
        """`player`'s DM should show their latest hand and what changed."""
        if self.dms.changed(table, player, changes):
            self._submit(("dm", table.id, player), lambda: self.dms.send(table, player))

    def panel_changed(self, table: Table, player: int) -> None:
        """`player`'s panel should be redrawn (their turn came, or a change not theirs)."""
        key = ("panel", table.id, player)
        self._hold(table, key, lambda: self._refresh_panel(table, player))

    def turn_passed(self, table: Table, player: int | None) -> None:
        """It is `player`'s turn: pinged if they are away (None: nobody's; the standing
        ping comes down)."""
        self._ping_due[table.id] = player
        self._hold(table, ("ping", table.id), lambda: self._ping(table))

    def report_changed(self, table: Table) -> None:
        """The launch report (`table.report`) should show its latest lines."""
        self._hold(table, ("report", table.id), lambda: self._write_report(table))

    def post(self, table: Table, content: str) -> None:
        """A message in the game's channel (deleted when the game ends, unless it is
        posted after the end: the result)."""
        self._post_seq += 1
        key = ("post", self._post_seq)
        during = table.open
        self._hold(table, key, lambda: self._send_post(table, content, during))

    def flush(self, table: Table) -> None:
        """No interaction will answer for what was just queued (a timer): send it now."""
        self._release(table.id)

    def fresh_board(self, table: Table, notice: Callable[[], str]) -> None:
        """Post a new board message (after a restart) instead of editing the old one, with
        `notice()` (worded when it is sent) as its content.

        The old board stays the game's board until then (a click on it still plays)."""
        self._board_written.pop(table.id, None)
        self._board_owners.pop(table.id, None)
        self._submit(("board", table.id), lambda: self._write_board(table, notice))

    def moved(self, table: Table, *, lobby_shown: bool) -> None:
        """The game moved to its own thread as it started (bot.discord.threads): what the
        outbox kept of its lobby's channel goes (its tokens post there), and the lobby message
        becomes the line pointing to the thread, unless the start's answer made it so."""
        lobby = self._board_owners.pop(table.id, None)
        for records in (self._fresh, self._board_written, self._board_pictures):
            records.pop(table.id, None)
        if not lobby_shown:
            self._submit(("lobby", table.id), lambda: self.threads.point(table, lobby))

    def channel_gone(self, channel_id: int) -> None:
        """The channel was deleted: nothing more is sent there, what waited for it is dropped."""
        self.access.forget(channel_id)
        for game_id, (table, _) in list(self._parked.items()):
            if table.channel_id == channel_id:
                del self._parked[game_id]

    def permissions_changed(self, guild_id: int) -> None:
        """A server's channels or roles changed: a channel that refused the bot and lets it
        in now gets what waited for it."""
        for table in self.access.refusing(guild_id):
            if self.access.recheck(table) is not None:  # what it may do now goes
                self._unpark(table.channel_id)

    def set_pings(self, guild_id: int, on: bool) -> None:
        self._pings_on[guild_id] = on

    # ------------------------------------------- what the interaction handlers call

    def answered(
        self,
        table: Table,
        interaction: discord.Interaction,
        *,
        panel_of: tuple[int, int] | None = None,
        board_version: int | None = None,
        report: Report | None = None,
        posted: int | None = None,
    ) -> None:
        """An interaction in `table`'s channel was answered: its token may carry what follows.

        `panel_of`: its response is that (player's panel, showing that version).
        `board_version`: its response is the board message (showing that version).
        `report`: its response is the launch report (showing its latest lines).
        `posted`: its response is this message for everyone (a skip, a kick), deleted with
        the game's other traffic when the game ends.
        """
        token = self.tokens.new(interaction)
        self._fresh[table.id] = token
        self._check_access(table, interaction, token)
        user = interaction.user.id
        self._seen.setdefault(table.id, {})[user] = self.clock()
        ping = self._pings.get(table.id)
        if ping is not None and ping.player == user:  # seen: it comes down
            ping.heard = True
            self._hold(table, ("ping", table.id), lambda: self._ping(table))
        if panel_of is not None:
            player, version = panel_of
            self._panel_shown(table, player, interaction, token)
            self._panel_versions.setdefault(table.id, {})[player] = version
        if board_version is not None and table.board_message_id is not None:
            self._board_owners[table.id] = Owned(table.board_message_id, token)
            self._board_pictures.pop(table.id, None)  # the response drew its own picture
            self.board_written(table, board_version)
        if report is not None and interaction.message is not None:
            owned = Owned(interaction.message.id, token)
            self._reports[table.id] = (report, owned)
            self._sweep_later(table, owned)
            report.shown = report.changes
        if posted is not None:
            self._sweep_later(table, Owned(posted, token))
        self._release(table.id)

    def _panel_shown(
        self, table: Table, player: int, interaction: discord.Interaction, token: Token
    ) -> None:
        """`interaction`'s response shows `player`'s panel: the clicked one updated, or a
        new one, which makes the one they had before a pointer to it."""
        panels = self._panels.setdefault(table.id, {})
        old = panels.get(player)
        updated = interaction.response.type is discord.InteractionResponseType.message_update
        metadata = getattr(interaction.message, "interaction_metadata", None) if updated else None
        if metadata is not None:
            opened_by = metadata.id
        elif updated and old is not None:  # which panel cannot be told: taken as the live one
            opened_by = old.opened_by
        else:
            opened_by = interaction.id
        panels[player] = Panel(token, opened_by)
        if old is not None and old.opened_by != opened_by:
            self._moved.setdefault(table.id, {}).setdefault(player, []).append(old.token)
            self.panel_changed(table, player)

    def board_written(self, table: Table, version: int) -> None:
        """A response already showed the board at `version` (`components.drawn_version`)."""
        if self._board_written.get(table.id, -1) < version:
            self._board_written[table.id] = version

    def board_moved(
        self,
        table: Table,
        old_message_id: int | None,
        interaction: discord.Interaction,
        version: int,
    ) -> None:
        """`/board` posted the board again below (its response): the old one becomes a stub."""
        old = self._board_owners.get(table.id)
        table.below = 0
        self.answered(table, interaction, board_version=version)
        if old_message_id is not None and old_message_id != table.board_message_id:
            owner = old if old is not None and old.message_id == old_message_id else None
            self._submit(("stub", old_message_id), lambda: self._stub(table, old_message_id, owner))

    def old_board_clicked(self, table: Table, message_id: int) -> None:
        """A click came from `message_id`, an older board still showing its buttons (one
        from before a restart): it becomes the one-line link to the live board."""
        self._submit(("stub", message_id), lambda: self._stub(table, message_id, None))

    # ------------------------------------------------------------- machinery

    def _hold(self, table: Table, key: tuple, job: Job) -> None:
        self.jobs.hold(table.id, key, self._guarded(key, job, table))

    def _release(self, game_id: int) -> None:
        self.jobs.release(game_id)

    def _submit(self, key: tuple, job: Job) -> None:
        self.jobs.submit(key, self._guarded(key, job))

    def _guarded(self, key: tuple, job: Job, table: Table | None = None) -> Job:
        """`job`, unless its game's channel was deleted; parked when its channel refuses
        the bot (sent once it may, bot.discord.access)."""

        async def guarded() -> None:
            if table is not None and self.access.gone(table.channel_id):
                return
            try:
                await job()
            except Refused as refused:
                self._park(refused.table, key, job)
            except (Gone, NoFiles):
                pass

        return guarded

    # ------------------------------------------------- channels that refuse the bot

    def _park(self, table: Table, key: tuple, job: Job) -> None:
        """Keep a job its channel refused until the bot may post there (or a token can
        carry it); the players of a game in play are told once, by DM."""
        if self.access.gone(table.channel_id):
            return
        self._parked.setdefault(table.id, (table, {}))[1].setdefault(key, job)
        game = table.game
        if table.status != "active" or game is None:
            return
        for player in game.players:
            if is_crewmate(player):
                continue
            if self.access.first_time_for(table.channel_id, player, "dm"):
                told = ("dm", table.id, player, "refused")
                self._submit(told, lambda player=player: self._tell_by_dm(table, player))

    def _unpark(self, channel_id: int) -> None:
        """Send what waited for the channel, its games' (through a token, or the channel)."""
        waiting = [
            game for game, (table, _) in self._parked.items() if table.channel_id == channel_id
        ]
        for game_id in waiting:
            for key, job in self._parked.pop(game_id)[1].items():
                self._submit(key, job)

    def _check_access(self, table: Table, interaction: discord.Interaction, token: Token) -> None:
        """What an interaction says the bot may do in its channel: a refusal is noted and
        whoever interacted told once, privately; what waited goes with its token."""
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
                self._hold(table, key, lambda: self._tell_privately(token, payload))
        else:
            self.access.allowed(table.channel_id)
        self._unpark(table.channel_id)

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

    async def _tell_privately(self, token: Token, payload: dict) -> None:
        with contextlib.suppress(discord.HTTPException):  # dismissed or expired: told later
            await self.tokens.follow_up(token, payload)

    async def _tell_by_dm(self, table: Table, player: int) -> None:
        refused = self.access.refused(table)
        if not refused or self.access.gone(table.channel_id):
            return  # let in again meanwhile
        language = await self.audience.player(player)
        text = t(
            language,
            "access.refused_dm",
            channel=f"<#{table.channel_id}>",
            missing=named(refused, language),
            id=table.id,
        )
        await self.dms.notice(player, Message(content=text).json())

    def _refusal(
        self, table: Table, exc: discord.HTTPException, upload: bool = False
    ) -> ChannelUnusable | None:
        """What a channel route's error means for the game's channel, if anything."""
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
            self.access.forget(table.channel_id)
            self._gone(table.channel_id)
            return Gone(table)
        forbidden = isinstance(exc, discord.Forbidden)
        if (
            forbidden
            and upload
            and exc.code == MISSING_PERMISSIONS
            and not self.access.cached(table)
        ):
            self._learn_files(table, False)  # all else allowed, as far as the bot knows
            return NoFiles(table)
        if forbidden and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
            # What the gateway's record says it lacks, and what Discord's answer means (so
            # that no request like this one is tried again while the refusal lasts).
            said = ("view_channel",) if exc.code == MISSING_ACCESS else self.access.needed(table)
            self.access.note(
                table, tuple(dict.fromkeys((*(self.access.cached(table) or ()), *said)))
            )
            return Refused(table)
        return None

    async def drain(self) -> None:
        """Wait until nothing is queued, held or being sent (tests and shutdown)."""
        await self.jobs.drain()

    async def close(self, timeout: float = 5.0) -> None:
        """Send what is queued (for at most `timeout` seconds), then stop."""
        await self.jobs.close(timeout)

    def _forget_later(self, table: Table) -> None:
        asyncio.get_running_loop().call_later(FORGET_AFTER, self._forget, table.id)

    def _forget(self, game_id: int) -> None:
        for records in (
            self._board_written,
            self._board_pictures,
            self._board_owners,
            self._fresh,
            self._panels,
            self._panel_versions,
            self._moved,
            self._reports,
            self._ping_due,
            self._pings,
            self._seen,
            self._pinged,
            self._litter,
        ):
            records.pop(game_id, None)
        self.threads.forget(game_id)

    # ------------------------------------------------------------------ jobs

    async def _spend(self) -> None:
        """Wait for a share of the global budget, before a request that counts against it."""
        await self.limiter.acquire()

    def _fresh_token(self, table: Table) -> Token | None:
        """The newest usable token of the game (for follow-ups), if any."""
        for token in (self._fresh.get(table.id), getattr(self._board_owner(table), "token", None)):
            if self.tokens.usable(token):
                return token
        return None

    def _board_owner(self, table: Table) -> Owned | None:
        owner = self._board_owners.get(table.id)
        if owner is None or owner.message_id != table.board_message_id:
            return None
        return owner if self.tokens.usable(owner.token) else None

    async def _channel(
        self,
        method: str,
        table: Table,
        payload: dict | None,
        message_id: int | None = None,
        upload: Picture | None = None,
    ) -> dict | None:
        """A request to the game's channel through the channel routes (global budget).

        With `upload`, the picture goes along (a multipart request). Raises `Refused` (no
        request) while the channel refuses the bot what it needs, `Gone` once it was deleted."""
        if self.access.gone(table.channel_id):
            raise Gone(table)
        missing = self.access.refused(table)
        if missing and blocks(missing, method, payload, upload is not None):
            self.access.note(table, missing)
            raise Refused(table)
        await self._spend()
        if message_id is None:
            route = Route(method, "/channels/{channel_id}/messages", channel_id=table.channel_id)
        else:
            route = Route(
                method,
                "/channels/{channel_id}/messages/{message_id}",
                channel_id=table.channel_id,
                message_id=message_id,
            )
        try:
            if upload is not None:
                return await self.client.http.request(route, **upload.multipart(payload))
            return await self.client.http.request(route, json=payload)
        except discord.HTTPException as exc:
            unusable = self._refusal(table, exc, upload is not None)
            if unusable is not None:
                raise unusable from exc
            raise

    async def _edit(
        self,
        table: Table,
        owned: Owned | None,
        message_id: int,
        payload: dict,
        upload: Picture | None = None,
    ) -> None:
        """Edit a message of the channel: through its token if usable, else the channel route."""
        if owned is not None and self.tokens.usable(owned.token):
            try:
                mid = None if owned.original else message_id
                await self.tokens.edit(owned.token, mid, payload, upload)
                return
            except discord.HTTPException:
                pass  # the channel route decides
        await self._channel("PATCH", table, payload, message_id, upload)

    async def _follow_up(
        self, table: Table, payload: dict, upload: Picture | None = None
    ) -> Owned | int:
        """Post in the channel: a follow-up of the game's newest token, else a channel post."""
        token = self._fresh_token(table)
        if token is not None:
            try:
                sent = await self.tokens.follow_up(token, payload, upload)
                return Owned(sent, token, original=False)
            except discord.HTTPException:
                pass
        sent = await self._channel("POST", table, payload, upload=upload)
        return int(sent["id"])

    # ----------------------------------------------------------------- board

    async def _show_board(self, table: Table) -> None:
        """The board shows the table now; once a game in a thread of its own is over and
        its final board shown, the thread closes (bot.discord.threads)."""
        await self._write_board(table)
        final = self._board_written.get(table.id, -1) >= components.drawn_version(table)
        if not table.open and final and table.parent_id is not None:
            await self.threads.close(table)

    async def _write_board(self, table: Table, notice: Callable[[], str] | None = None) -> None:
        """The board shows the table now: edited, or posted below (with `notice()` as its
        content, always posted below: a fresh board after a restart)."""
        version = components.drawn_version(table)
        buried = table.below > REPOST_AFTER
        shown = 0 <= version <= self._board_written.get(table.id, -1)
        if notice is None and shown and not buried:
            return  # an interaction response already showed this state
        self._learn_files(table, redraw=False)
        message = attachments.board(table)
        if notice is not None:
            message = replace(message, content=notice())
        pictured = message.picture
        payload = message.json(attachments=False)  # named by _attach or _post_board
        if table.board_message_id is not None and not buried and notice is None:
            owner = self._board_owner(table)
            if owner is not None:
                try:
                    sent = await self.tokens.edit(
                        owner.token,
                        None if owner.original else owner.message_id,
                        payload,
                        self._attach(table, payload, pictured),
                    )
                    return self._board_done(table, version, pictured, sent)
                except discord.HTTPException:
                    pass
            if self._fresh_token(table) is None:  # nothing to post it again with: edit it
                try:
                    upload = self._attach(table, payload, pictured)
                    sent = await self._channel(
                        "PATCH", table, payload, table.board_message_id, upload
                    )
                    return self._board_done(table, version, pictured, sent)
                except discord.NotFound:
                    pass
                except discord.HTTPException as exc:
                    if exc.code != TOO_OLD_TO_EDIT:
                        raise
        await self._post_board(table, payload, pictured, fresh=notice is not None)
        self._board_done(table, version)

    def _board_done(
        self, table: Table, version: int, shown: Picture | None = None, sent: dict | None = None
    ) -> None:
        self.board_written(table, version)
        if shown is not None and sent is not None:  # remember its picture, to keep it
            for attachment in sent.get("attachments", []):
                if attachment["filename"] == shown.filename:
                    picture = (table.board_message_id, shown.filename, int(attachment["id"]))
                    self._board_pictures[table.id] = picture

    def _attach(self, table: Table, payload: dict, shown: Picture | None) -> Picture | None:
        """Name the board's attachments in `payload`; the picture to upload, if any.

        A picture this outbox already uploaded to the board message is kept by its id,
        not sent again: an unchanged table uploads nothing new.
        """
        if shown is None:
            payload["attachments"] = []  # a lobby, or pictures turned off: none
            return None
        known = self._board_pictures.get(table.id)
        if known is not None and known[:2] == (table.board_message_id, shown.filename):
            payload["attachments"] = [{"id": known[2]}]
            return None
        payload["attachments"] = [shown.attachment()]
        return shown

    async def _post_board(
        self, table: Table, payload: dict, shown: Picture | None, *, fresh: bool = False
    ) -> None:
        """The board posted below (a follow-up when a token can carry it); the old one stubbed
        (after a restart, `fresh`, only through a token: an hour-old message is left be)."""
        old_id, old_owner = table.board_message_id, self._board_owners.pop(table.id, None)
        if shown is not None:
            payload["attachments"] = [shown.attachment()]
        try:
            sent = await self._follow_up(table, payload, shown)
        except ChannelUnusable:
            if old_owner is not None:
                self._board_owners[table.id] = old_owner
            raise
        if isinstance(sent, Owned):
            table.board_message_id = sent.message_id
            self._board_owners[table.id] = sent
        else:
            table.board_message_id = sent
        table.below = 0
        await self.store.set_board_message(table.id, table.board_message_id)
        owner = old_owner if old_owner is not None and old_owner.message_id == old_id else None
        if old_id is not None and (owner is not None or not fresh):
            self._submit(("stub", old_id), lambda: self._stub(table, old_id, owner))
        elif old_id is not None:  # left be until the game ends
            self._sweep_later(table, Owned(old_id, None))

    async def _stub(self, table: Table, message_id: int, owner: Owned | None) -> None:
        """An older board becomes the link to the live one (deleted when the game ends: then
        at once, with no edit first, which a closed thread would refuse)."""
        with contextlib.suppress(discord.NotFound):  # deleted meanwhile: nothing to stub
            if table.open:
                await self._edit(table, owner, message_id, components.board_stub(table).json())
            self._sweep_later(table, owner or Owned(message_id, None))

    # ------------------------------------------------------------ the game's end

    def _sweep_later(self, table: Table, owned: Owned) -> None:
        """A message of the game to delete when it ends (now, if it has ended)."""
        self._litter.setdefault(table.id, {})[owned.message_id] = owned
        if not table.open:
            self._submit(("sweep", table.id), lambda: self._sweep(table))

    async def _sweep(self, table: Table) -> None:
        """The game is over: what it posted while it ran is deleted, one by one (what
        the channel refuses waits for it); its records are forgotten a little later."""
        litter = self._litter.get(table.id, {})
        while litter:
            message_id, owned = next(iter(litter.items()))
            try:
                await self._delete(table, owned)
            except Refused:
                self._park(table, ("unpost", message_id), lambda o=owned: self._delete(table, o))
            litter.pop(message_id, None)
        self._forget_later(table)

    # ---------------------------------------------------- reports, pings, posts

    async def _write_report(self, table: Table) -> None:
        report = table.report
        if report is None or not table.open:
            return  # once the game is over, its final board tells every launch
        current, owned = self._reports.get(table.id, (None, None))
        if current is report and report.shown >= report.changes:
            return
        changes = report.changes
        message = attachments.report(table, report)
        pictured = message.picture
        # The new picture replaces the old; without one, the attachments are left alone.
        payload = message.json(attachments=pictured is not None)
        if current is report and owned is not None:
            await self._edit(table, owned, owned.message_id, payload, pictured)
        else:
            sent = await self._follow_up(table, payload, pictured)
            if not isinstance(sent, Owned):
                sent = Owned(sent, None)
            self._reports[table.id] = (report, sent)
            self._sweep_later(table, sent)
            table.below += 1
        report.shown = max(report.shown, changes)

    async def _ping(self, table: Table) -> None:
        """Ping the player whose turn just came, if they are away; take the standing ping
        down once its player interacted or their turn is over."""
        player = self._ping_due.pop(table.id, None)
        game = table.game
        active = game.active_player if game is not None and table.open else None
        old = self._pings.get(table.id)
        if player is not None and player == active and await self._away(table, player):
            ping = Message(
                content=t(table.language, "notice.ping", player=render.mention(player)),
                mentions={"users": [str(player)]},
            )
            try:
                sent = await self._follow_up(table, ping.json())
            except ChannelUnusable:
                self._ping_due.setdefault(table.id, player)  # still due, unless overtaken
                raise
            if not isinstance(sent, Owned):
                sent = Owned(sent, None)
            self._pings[table.id] = Ping(player, sent)
            self._pinged.setdefault(table.id, {})[player] = self.clock()
        elif old is None or (old.player == active and not old.heard):
            return  # it still stands
        else:
            del self._pings[table.id]
        if old is not None:
            gone = old.message
            try:
                await self._delete(table, gone)
            except Refused:  # taken down once the channel lets the bot in
                self._park(table, ("unping", gone.message_id), lambda: self._delete(table, gone))

    async def _away(self, table: Table, player: int) -> bool:
        """Whether `player`'s turn pings them: they did nothing in the game lately, were not
        pinged lately, and the server wants turn pings."""
        now, scale = self.clock(), table.time_scale
        seen = self._seen.get(table.id, {}).get(player, float("-inf"))
        pinged = self._pinged.get(table.id, {}).get(player, float("-inf"))
        if now - seen < IDLE_BEFORE_PING / scale or now - pinged < PING_EVERY / scale:
            return False
        return await self._pings_wanted(table.guild_id)

    async def _delete(self, table: Table, owned: Owned) -> None:
        """Delete a message of the channel: through its token if usable, else the channel
        route (a message already gone is no error)."""
        try:
            if self.tokens.usable(owned.token):
                try:
                    await self.tokens.delete(
                        owned.token, None if owned.original else owned.message_id
                    )
                    return
                except discord.HTTPException:
                    pass
            await self._channel("DELETE", table, None, owned.message_id)
        except discord.NotFound:
            pass

    async def _pings_wanted(self, guild_id: int) -> bool:
        on = self._pings_on.get(guild_id)
        if on is None:
            on = (await self.store.get_guild_settings(guild_id)).turn_pings
            self._pings_on[guild_id] = on
        return on

    async def _send_post(self, table: Table, content: str, during: bool) -> None:
        """A post; one made `during` the game goes when it ends."""
        sent = await self._follow_up(table, Message(content=content).json())
        if during:
            self._sweep_later(table, sent if isinstance(sent, Owned) else Owned(sent, None))
        table.below += 1
        if self.threads.reopened(table):  # posted after its thread closed: it closes again
            self._submit(("board", table.id), lambda: self._show_board(table))

    # ------------------------------------------------------------------ panels

    async def _refresh_panel(self, table: Table, player: int) -> None:
        """Turn a player's older panels into pointers to their newest, and redraw that one
        through its latest token, while it is usable (saying at its top when it is their
        turn: what tells them when they are not pinged)."""
        moved = self._moved.get(table.id, {}).pop(player, [])
        older = [token for token in moved if self.tokens.usable(token)]
        if older:
            stub = components.panel_stub(await self.audience.player(player)).json()
            for token in older:
                with contextlib.suppress(discord.HTTPException):  # dismissed meanwhile
                    await self.tokens.edit(token, None, stub)
        live = self._panels.get(table.id, {}).get(player)
        game = table.game
        if live is None or not self.tokens.usable(live.token):
            return
        if game is None or player not in game.players:
            return
        versions = self._panel_versions.setdefault(table.id, {})
        if versions.get(player, -1) >= table.version and table.open:
            return
        version = table.version
        language = await self.audience.player(player)
        waiting = game.phase in (Phase.RESHUFFLE, Phase.OVER) or not table.open
        note = None if waiting or game.active_player != player else t(language, "ping.panel")
        try:
            message = panel.panel_message(table, player, language, note)
            await self.tokens.edit(live.token, None, message.json())
        except discord.HTTPException:
            return  # dismissed or expired (the token is dropped): their next click redraws it
        versions[player] = version
