"""The fake Discord's records, watched: the bot's answers, board edits and DMs, timed."""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque

from benchmarks.load.model import SLOW, Sample, Tab
from devtools.fakediscord import FakeDiscord
from devtools.fakediscord.state import ChannelType

#: Discord's deadline for the first response to an interaction, seconds.
DEADLINE = 3.0
#: Interactions unanswered after this long count as failed.
ANSWER_TIMEOUT = 10.0
#: Seconds the fake's records are kept (messages, interactions, pending actions).
KEEP = 120.0


class Watcher:
    """What the bot does to the tables on the fake Discord, timed into the current window
    (the players, benchmarks/load/players.py, are a Watcher that also plays)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.tabs: list[Tab] = []
        self.boards: dict[int, Tab] = {}
        #: panel message id -> its tab
        self.panels: dict[int, Tab] = {}
        #: interactions the bot may still use the tokens of (kept when pruning)
        self.latest_by_user: dict[int, deque] = {}
        self.latest_by_channel: dict[int, deque] = {}
        self.user_tab: dict[int, Tab] = {}
        self.channel_tab: dict[int, Tab] = {}
        self.last_dm: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Future] = {}
        self.window: Sample | None = None
        self.window_span = (0.0, 0.0)
        self.running = True
        #: Seconds an interaction is kept for its token (bar each player's and each place's
        #: latest and the boards'): Load keeps them for the token's whole life where the bot
        #: is no member, as everything goes through tokens there and a token pruned here
        #: would answer 404 as if the bot had used a token it never had.
        self.token_keep = KEEP
        self._recent: deque[tuple[float, int]] = deque()
        self._hook()

    # --------------------------------------------------------- seeing the bot's output

    def _hook(self) -> None:
        """Observe the fake's message records without waking every waiter on each change."""
        fake, world, bodies, tokens = (
            self.fake,
            self.fake.world,
            self.fake.rest.bodies,
            self.fake.rest.tokens,
        )
        add_message, edit, attempt = world.add_message, bodies.edit, tokens.attempt

        def on_add(channel, **fields):
            message = add_message(channel, **fields)
            now = time.monotonic()
            if channel.type is ChannelType.DM:
                self.on_dm(channel.recipient.id, now)
            elif not message.ephemeral and ":hand" in str(message.components):
                tab = self.channel_tab.get(channel.id)
                if tab is not None and tab.board_id != message.id:  # the board, posted again
                    if tab.board_id is not None:
                        self.boards.pop(tab.board_id, None)
                    tab.board_id = message.id
                    self.boards[message.id] = tab
                    self.on_board(tab, message, now)
            self._recent.append((now, message.id))
            return message

        def on_edit(message, request, body=None, **options):
            edit(message, request, body, **options)
            message.history.clear()
            now = time.monotonic()
            tab = self.boards.get(message.id)
            if tab is not None and message.components:  # (a stub has none: moved down)
                self.on_board(tab, message, now)
            elif message.id in self.panels:
                tab = self.panels[message.id]
                tab.panel_changed.set()
                owner = next((u for u, m in tab.panels.items() if m.id == message.id), None)
                if owner is not None:  # a panel shows its player's hand, as a DM does
                    self.on_dm(owner, now)
            elif message.guild_id is None and message.channel_id in world.channels:
                recipient = world.channels[message.channel_id].recipient
                if recipient is not None:
                    self.on_dm(recipient.id, now)

        def on_attempt(interaction, body, status):
            attempt(interaction, body, status)
            waiter = self.waiters.pop(interaction.id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

        # Wrapped in place, on these objects only (the fake offers no hooks: tests need none).
        for owner, name, wrapper in (
            (world, "add_message", on_add),
            (bodies, "edit", on_edit),
            (tokens, "attempt", on_attempt),
            (fake.notifier, "bump", lambda: None),  # nobody here waits on the notifier
        ):
            setattr(owner, name, wrapper)

    def on_board(self, tab: Tab, message, now: float) -> None:
        version: int | None = None
        actions = []
        for component in message.iter_components():
            custom_id = component.get("custom_id", "")
            if custom_id.startswith("apo:b:"):
                _, _, _, v, action = custom_id.split(":")
                version = int(v)
                actions.append(action)
        if "join" in actions or "start" in actions:
            version = -1
        tab.board_version, tab.board_time = version, now
        for p in tab.pending:
            if p.board_at is None and (version is None or version >= p.version):
                p.board_at = now
                p.last = max(p.last, now)
        self._settle(tab)

    def on_dm(self, user_id: int, now: float) -> None:
        """`user_id`'s hand was shown: their DM, or their panel, edited."""
        self.last_dm[user_id] = now
        tab = self.user_tab.get(user_id)
        if tab is None:
            return
        for p in tab.pending:
            if user_id in p.dms and now >= p.t0:
                p.dms.discard(user_id)
                p.last = max(p.last, now)
                if (window := self.window_at(p.t0)) is not None:
                    window.dm_lag.append(now - p.t0)
        self._settle(tab)

    def _settle(self, tab: Tab) -> None:
        done = [p for p in tab.pending if p.board_at is not None and not p.dms]
        if not done:
            return
        tab.pending = [p for p in tab.pending if p not in done]
        for p in done:
            if (window := self.window_at(p.t0)) is not None and p.board_at is not None:
                window.last.append(p.last - p.t0)
                window.board.append(p.board_at - p.t0)

    def window_at(self, t: float) -> Sample | None:
        """The window's samples, if a window is open and `t` falls in it."""
        if self.window is not None and self.window_span[0] <= t < self.window_span[1]:
            return self.window
        return None

    # ------------------------------------------------ the generator's delays, the answers

    def watch_gc(self) -> None:
        """Record the generator's own garbage collections (they delay what it timestamps)."""
        began = [0.0]

        def callback(phase: str, info: dict) -> None:
            now = time.monotonic()
            if phase == "start":
                began[0] = now
            elif self.window is not None and now - began[0] >= 0.01:
                self.window.gc_pauses.append((info["generation"], now - began[0]))

        gc.callbacks.append(callback)

    async def watch_lag(self) -> None:
        while self.running:
            began = time.monotonic()
            await asyncio.sleep(0.01)
            if self.window is not None:
                woke = time.monotonic()
                lag = woke - began - 0.01
                self.window.lag.append(lag)
                if lag > SLOW:
                    self.window.lag_spikes.append((woke, lag))

    async def answered(self, interaction, kind: str) -> bool:
        """Wait for the first response; record its latency. False if refused or late."""
        for latest, key in (
            (self.latest_by_user, interaction.user.id),
            (self.latest_by_channel, interaction.channel.id),
        ):
            latest.setdefault(key, deque(maxlen=3)).append(interaction.id)
        if not interaction.attempts:
            waiter = asyncio.get_running_loop().create_future()
            self.waiters[interaction.id] = waiter
            try:
                await asyncio.wait_for(waiter, ANSWER_TIMEOUT)
            except TimeoutError:
                self.waiters.pop(interaction.id, None)
        sample = self.window_at(interaction.created_at)
        if sample is not None:
            sample.interactions += 1
            sample.kinds[kind] = sample.kinds.get(kind, 0) + 1
        if not interaction.attempts:
            if sample is not None:
                sample.failed += 1
            return False
        attempt = interaction.attempts[0]
        latency = attempt.at - interaction.created_at
        if sample is not None:
            sample.first.append(latency)
            sample.by_kind.setdefault(kind, []).append(latency)
            if latency > SLOW:
                sample.slow.append((interaction.created_at, latency))
            if attempt.status != 200 or latency > DEADLINE:
                sample.failed += 1
        return attempt.status == 200

    # --------------------------------------------------------------------- upkeep

    async def keep_pruning(self) -> None:
        """Prune every second: a little at a time, as one large prune held the generator's
        loop for up to a quarter of a second (and inflated the latencies it was timing)."""
        while self.running:
            await asyncio.sleep(1.0)
            self.prune()

    def prune(self) -> None:
        """Forget what the fake recorded long ago (a long run would fill memory)."""
        world, cutoff = self.fake.world, time.monotonic() - KEEP
        while self._recent and self._recent[0][0] < cutoff:
            _, message_id = self._recent.popleft()
            if message_id not in self.boards and message_id not in self.panels:
                world.messages.pop(message_id, None)
        # Tokens the bot may still use: each player's and each channel's latest, the boards'.
        keep = {i for latest in self.latest_by_user.values() for i in latest}
        keep.update(i for latest in self.latest_by_channel.values() for i in latest)
        keep.update(m.interaction_id for m in map(world.messages.get, self.boards) if m is not None)
        old, kept_since = [], time.monotonic() - self.token_keep
        for key, interaction in world.interactions.items():  # oldest first
            if interaction.created_at >= kept_since:
                break
            if key not in keep:
                old.append(key)
        for key in old:
            interaction = world.interactions.pop(key)
            world.interactions_by_token.pop(interaction.token, None)
        for session in self.fake.gateway.shards.values():
            session.sent.clear()
        for tab in self.tabs:
            if tab.pending and tab.pending[0].t0 < cutoff:
                tab.pending = [p for p in tab.pending if p.t0 >= cutoff]
