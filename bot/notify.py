"""The outbox: every message that is not an interaction response goes through here.

Board edits, hand DMs and channel posts are coalesced by key: a board is edited once
with its latest state however many actions happened meanwhile, and a player's DM
always carries their latest hand with every change since the last one. A job that
fails because Discord asked us to slow down, or had a passing fault, is retried later:
the latest state of a hand is never dropped.

Requests to the channel and DM routes spend Discord's global budget of 50 a second
and are paced by one token bucket. Most board edits and channel posts do not need
them: the interaction that last drew the board (a click on it, or the command that
posted it) owns it as its "original response" for the token's 15 minutes, and an edit
or a follow-up through that token is not counted against the global limit. Those go
that way, and the channel routes are the fallback. Hand DMs always spend the budget, so
they queue in a lane of their own: when players outpace it, their backlog never holds
boards back. Requests are sent as Discord's JSON through discord.py's HTTP client, so
that no message object is built from each answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord.http import Route
from discord.webhook.async_ import async_context

from bot import components, render

if TYPE_CHECKING:
    from bot.service import Table
    from bot.store import Store

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

#: Requests a second we allow ourselves out of Discord's global 50.
GLOBAL_RATE = 45.0
#: How long a board edit waits for more changes (and for an interaction response to claim it).
BOARD_DELAY = 0.5
RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
#: Discord's error for editing a message that is over an hour old too often.
TOO_OLD_TO_EDIT = 30046
#: The outbox's queues: hand DMs (always paced by the global budget) apart from the rest.
LANES = ("tables", "dms")
#: Jobs sent at once in each lane.
WORKERS = 8
#: How long after an interaction we still use its token (Discord: 15 minutes), leaving
#: room for an edit that waits in the queue.
TOKEN_USE_SECONDS = 14 * 60.0
#: allowed_mentions that ping nobody.
NO_MENTIONS = {"parse": []}


def message_json(message: dict, content: str | None = None) -> dict:
    """A board/lobby/report message (`components.board_message` and co.) as Discord's JSON."""
    payload = {
        "embeds": [message["embed"].to_dict()],
        "components": message["view"].to_components(),
        "allowed_mentions": NO_MENTIONS,
    }
    if content is not None:
        payload["content"] = content
    return payload


def _retry_after(exc: Exception) -> float | None:
    """The wait a 429 asks for, when discord.py raised it instead of waiting itself.

    It does so for a 429 without Discord's ``Via`` header: the answer of a REST proxy
    (such as nirn-proxy) limiting the bot for all its processes. That is a request to
    slow down like any other, so the job is retried, after the time it names.
    """
    if not isinstance(exc, discord.HTTPException) or exc.status != 429:
        return None
    headers = getattr(exc.response, "headers", None) or {}
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        try:
            return max(float(headers[name]), 0.0)
        except (KeyError, ValueError):
            continue
    return None


class RateLimiter:
    """A token bucket: at most `rate` acquisitions a second, in bursts of `burst`."""

    def __init__(self, rate: float, burst: int = 10) -> None:
        self.rate, self.burst = rate, burst
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
                self._stamp = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)


class Outbox:
    """Coalescing, rate-limited sender of boards, hand DMs and channel posts."""

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        *,
        rate: float = GLOBAL_RATE,
        workers: int = WORKERS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.store = store
        self.clock = clock
        self.limiter = RateLimiter(rate)
        self._jobs: dict[str, OrderedDict[tuple, Job]] = {lane: OrderedDict() for lane in LANES}
        self._attempts: dict[tuple, int] = {}
        self._running: set[tuple] = set()
        self._wakeup = {lane: asyncio.Event() for lane in LANES}
        self._idle = asyncio.Event()
        self._workers = [
            asyncio.create_task(self._work(lane)) for lane in LANES for _ in range(workers)
        ]
        self._post_seq = 0
        #: game id -> the latest version of a started game the board shows (a lobby has
        #: no versions: it is always redrawn).
        self._board_written: dict[int, int] = {}
        self._board_due: set[tuple] = set()
        self._dm_changes: dict[tuple[int, int], list[str]] = {}
        self._dm_channels: dict[int, int] = {}
        self._dms_closed: set[tuple[int, int]] = set()
        #: game id -> (board message id, token of the interaction owning it, usable until)
        self._board_owners: dict[int, tuple[int, str, float]] = {}
        self._webhook: discord.Webhook | None = None

    # ------------------------------------------------- what the service calls

    def board_changed(self, table: Table) -> None:
        """The board of `table` should show its latest state (soon: bursts coalesce)."""
        key = ("board", table.id)
        if key not in self._jobs["tables"] and key not in self._board_due:
            self._board_due.add(key)
            asyncio.get_running_loop().call_later(BOARD_DELAY, self._board_due_now, table)

    def _board_due_now(self, table: Table) -> None:
        self._board_due.discard(("board", table.id))
        self._submit(("board", table.id), lambda: self._write_board(table))

    def board_written(
        self, table: Table, version: int, interaction: discord.Interaction | None = None
    ) -> None:
        """An interaction response already showed the board at `version`.

        With `interaction`: its original response is the board message (a click on the
        board answered by updating it, or the command that posted it), so its token may
        edit the board and post in the channel for a while, outside the global limit.
        """
        if table.game is not None and self._board_written.get(table.id, -1) < version:
            self._board_written[table.id] = version
        if interaction is not None and table.board_message_id is not None:
            until = self.clock() + TOKEN_USE_SECONDS
            self._board_owners[table.id] = (table.board_message_id, interaction.token, until)

    def _board_owner(self, table: Table) -> str | None:
        """The token that may edit the current board now, if any."""
        owner = self._board_owners.get(table.id)
        if owner is None:
            return None
        message_id, token, until = owner
        if message_id != table.board_message_id or self.clock() >= until:
            del self._board_owners[table.id]
            return None
        return token

    def hand_changed(self, table: Table, player: int, changes: list[str]) -> None:
        """`player` should get a DM with their latest hand and what changed."""
        key = (table.id, player)
        if key in self._dms_closed:
            return
        self._dm_changes.setdefault(key, []).extend(changes)
        self._submit(("dm", *key), lambda: self._send_hand(table, player))

    def post(self, table: Table, content: str) -> None:
        """A message in the game's channel."""
        self._post_seq += 1
        self._submit(("post", self._post_seq), lambda: self._send_post(table, content))

    def fresh_board(self, table: Table, content: str) -> None:
        """Post a new board message (after a restart) instead of editing the old one."""
        table.board_message_id = None
        self._board_written.pop(table.id, None)
        self._board_owners.pop(table.id, None)
        self._submit(("board", table.id), lambda: self._write_board(table, content))

    # ------------------------------------------------------------- machinery

    def _submit(self, key: tuple, job: Job) -> None:
        # A pending job reads the latest state when it runs, so one per key is enough.
        lane = "dms" if key[0] == "dm" else "tables"
        self._jobs[lane].setdefault(key, job)
        self._wakeup[lane].set()

    def _pending(self) -> int:
        return sum(map(len, self._jobs.values()))

    async def _next_job(self, lane: str) -> tuple[tuple, Job]:
        jobs, wakeup = self._jobs[lane], self._wakeup[lane]
        while True:
            for key in jobs:
                if key not in self._running:  # one job per key at a time, in order
                    self._running.add(key)
                    return key, jobs.pop(key)
            wakeup.clear()
            await wakeup.wait()

    async def _work(self, lane: str) -> None:
        while True:
            key, job = await self._next_job(lane)
            try:
                await job()
                self._attempts.pop(key, None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._retry_later(key, job, exc)
            finally:
                self._running.discard(key)
                self._wakeup[lane].set()
                if not self._pending() and not self._running:
                    self._idle.set()

    def _retry_later(self, key: tuple, job: Job, exc: Exception) -> None:
        attempt = self._attempts.get(key, 0)
        self._attempts[key] = attempt + 1
        transient = isinstance(exc, discord.HTTPException) and (
            exc.status == 429 or exc.status >= 500
        )
        if not transient and (key[0] == "post" or attempt >= 2):
            log.error("giving up on %s", key, exc_info=exc)
            self._attempts.pop(key, None)
            return
        delay = _retry_after(exc) or RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
        log.warning("%s failed (%s); retrying in %.1f s", key, exc, delay)

        asyncio.get_running_loop().call_later(delay, self._submit, key, job)

    async def drain(self) -> None:
        """Wait until nothing is queued or being sent (tests and shutdown)."""
        while self._pending() or self._running or self._board_due:
            self._idle.clear()
            await self._idle.wait()

    async def close(self, timeout: float = 5.0) -> None:
        """Send what is queued (for at most `timeout` seconds), then stop."""
        try:
            await asyncio.wait_for(self.drain(), timeout)
        except TimeoutError:
            log.warning("shutting down with %d messages unsent", self._pending())
        for worker in self._workers:
            worker.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)

    # ------------------------------------------------------------------ jobs

    async def _spend(self) -> None:
        """Wait for a share of the global budget, before a request that counts against it."""
        await self.limiter.acquire()

    async def _write_board(self, table: Table, content: str | None = None) -> None:
        version = table.version
        shown = self._board_written.get(table.id, -1) if table.game is not None else -1
        if content is None and shown >= version:
            return  # an interaction response already showed this state
        payload = message_json(components.board_message(table), content)
        if table.board_message_id is not None:
            try:
                await self._to_table(table, "PATCH", payload)
            except discord.NotFound:
                table.board_message_id = None
            except discord.HTTPException as exc:
                if exc.code != TOO_OLD_TO_EDIT:
                    raise
                table.board_message_id = None  # post a fresh board instead
        if table.board_message_id is None:
            await self._spend()
            sent = await self.client.http.request(
                Route("POST", "/channels/{channel_id}/messages", channel_id=table.channel_id),
                json=payload,
            )
            table.board_message_id = int(sent["id"])
            await self.store.set_board_message(table.id, table.board_message_id)
        self.board_written(table, version)

    async def _to_table(self, table: Table, method: str, payload: dict) -> None:
        """PATCH the board or POST a message in the game's channel.

        Through the token of the interaction owning the board when there is one (outside
        the global limit), else through the channel routes.
        """
        token = self._board_owner(table)
        if token is not None:
            try:
                await self._through_token(method, token, payload)
                return
            except discord.HTTPException as exc:
                # Token refused (expired, unknown) or message gone: the channel route decides.
                log.debug("%s through the interaction token failed: %s", method, exc)
                self._board_owners.pop(table.id, None)
        await self._spend()
        if method == "PATCH":
            route = Route(
                "PATCH",
                "/channels/{channel_id}/messages/{message_id}",
                channel_id=table.channel_id,
                message_id=table.board_message_id,
            )
        else:
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=table.channel_id)
        await self.client.http.request(route, json=payload)

    async def _through_token(self, method: str, token: str, payload: dict) -> None:
        """Edit the original response (PATCH) or post a follow-up (POST) with `token`.

        Sent by discord.py's webhook adapter, which keeps no rate-limit record per token
        (its HTTP client keeps one per route and token for five minutes, and scans them
        all whenever it adds one: at hundreds of tokens a second, a third of our time).
        """
        if self._webhook is None:
            # The client's session and proxy settings, as discord.py's own webhooks use them.
            self._webhook = discord.Webhook.partial(
                self.client.application_id, "-", client=self.client
            )
        webhook, adapter = self._webhook, async_context.get()
        send = (
            adapter.edit_original_interaction_response
            if method == "PATCH"
            else adapter.execute_webhook
        )
        await send(
            webhook.id,
            token,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=payload,
        )

    async def _send_hand(self, table: Table, player: int) -> None:
        key = (table.id, player)
        changes = self._dm_changes.pop(key, [])
        if not changes:
            return  # an earlier DM already carried the latest hand
        game = table.game
        hand = (
            tuple(game.hands[game.players.index(player)])
            if (game is not None and player in game.players)
            else ()
        )
        try:
            channel_id = await self._dm_channel(player)
            await self._spend()
            await self.client.http.request(
                Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id),
                json={
                    "content": render.hand_dm(table, hand, changes),
                    "allowed_mentions": NO_MENTIONS,
                },
            )
        except discord.Forbidden:
            self._dms_closed.add(key)
            self.post(
                table,
                f"📪 {render.mention(player)}, I cannot send you direct messages, so your "
                "hand is not coming by DM. Use `/hand` here to see it privately.",
            )
        except Exception:
            # Keep what changed for the retry, before anything newer.
            self._dm_changes[key] = changes + self._dm_changes.get(key, [])
            raise

    async def _dm_channel(self, user_id: int) -> int:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            channel_id = await self.store.get_dm_channel(user_id)
        if channel_id is None:
            await self._spend()
            dm = await self.client.create_dm(discord.Object(user_id))
            channel_id = dm.id
            await self.store.set_dm_channel(user_id, channel_id)
        self._dm_channels[user_id] = channel_id
        return channel_id

    async def _send_post(self, table: Table, content: str) -> None:
        await self._to_table(table, "POST", {"content": content, "allowed_mentions": NO_MENTIONS})
