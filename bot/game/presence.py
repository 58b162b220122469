"""Who watches each channel's table on the other processes: told through the notices, kept a while.

A live table says how many people watch it. Where several processes serve the tables,
its watchers are spread over them: each process tells the others, on `WATCH`, who watches
each channel on it (their ids, 0 for someone not signed in) whenever that changes, and
again every ANNOUNCE_SECONDS for all of them; what a process was told is kept
KEPT_SECONDS from its last word, so that a process gone without a goodbye (killed, cut
off) is forgotten soon. A process that stops says goodbye: none of its watchers remain.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from bot.store.database import Notices
from bot.store.notices import MAX_PAYLOAD
from bot.store.records import StoreBusy

log = logging.getLogger(__name__)
#: The notices' channel of who watches where.
WATCH = "apophis_watch"
#: How often every process says again who watches on it, and how long what it said holds.
ANNOUNCE_SECONDS = 30.0
KEPT_SECONDS = 75.0


class Presence:
    """The watchers of every channel on the other processes (see the module docstring)."""

    def __init__(
        self, notices: Notices, node: str, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.notices = notices
        self.node = node
        self.clock = clock
        #: Told each channel whose watchers elsewhere changed (the live table here), and each
        #: channel someone now watches elsewhere where nobody did (the relay: its game's
        #: notices are sent only while someone watches it on another process).
        self.changed: Callable[[int], None] = lambda channel: None
        self.arrived: Callable[[int], None] = lambda channel: None
        #: Who watches each channel here (ids, 0: not signed in).
        self._here: dict[int, list[int]] = {}
        #: Who watches each channel on each other process, and when that process said so.
        self._there: dict[int, dict[str, tuple[list[int], float]]] = {}
        self._due: set[int] = set()
        self._announcing: asyncio.Task[None] | None = None
        self._telling: set[asyncio.Future[None]] = set()

    async def start(self) -> None:
        await self.notices.listen(WATCH, self._heard)
        self._announcing = asyncio.get_running_loop().create_task(self._announce())

    def watched(self, channel: int, viewers: list[int]) -> None:
        """Who watches `channel` here now: told to the others once the loop is free."""
        if viewers:
            self._here[channel] = viewers
        else:
            self._here.pop(channel, None)
        if not self._due:
            asyncio.get_running_loop().call_soon(self._tell_due)
        self._due.add(channel)

    def elsewhere(self, channel: int) -> list[int]:
        """Who watches `channel` on the other processes (as they last said, lately)."""
        now = self.clock()
        return [
            viewer
            for viewers, said in self._there.get(channel, {}).values()
            if now - said < KEPT_SECONDS
            for viewer in viewers
        ]

    def watched_elsewhere(self, channel: int) -> bool:
        """Whether someone watches `channel` on another process (as it said, lately)."""
        now = self.clock()
        there = self._there.get(channel, {})
        return any(now - said < KEPT_SECONDS for _, said in there.values())

    async def close(self) -> None:
        """Goodbye: nobody watches on this process any more."""
        if self._announcing is not None:
            self._announcing.cancel()
        for telling in list(self._telling):  # (the goodbye says it all)
            telling.cancel()
        gone: dict[int, list[int]] = {channel: [] for channel in self._here}
        self._here.clear()
        with contextlib.suppress(StoreBusy):
            for payload in self._payloads(gone):
                await self.notices.notify(WATCH, payload)

    # ------------------------------------------------------------ inside

    def _tell_due(self) -> None:
        due, self._due = self._due, set()
        told = {channel: self._here.get(channel, []) for channel in due}
        task = asyncio.ensure_future(self._tell(told))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _announce(self) -> None:
        while True:
            await asyncio.sleep(ANNOUNCE_SECONDS)
            await self._tell(dict(self._here))

    async def _tell(self, watchers: dict[int, list[int]]) -> None:
        try:
            for payload in self._payloads(watchers):
                await self.notices.notify(WATCH, payload)
        except StoreBusy as exc:
            log.warning("who watches here was not told to the other processes: %s", exc)

    def _payloads(self, watchers: dict[int, list[int]]) -> list[str]:
        """`node channel:id,id channel:` ... in payloads under the notices' limit."""
        payloads, parts = [], [self.node]
        for channel, viewers in watchers.items():
            part = f"{channel}:{','.join(map(str, viewers))}"
            if len(" ".join(parts)) + len(part) + 1 > MAX_PAYLOAD and len(parts) > 1:
                payloads.append(" ".join(parts))
                parts = [self.node]
            parts.append(part)
        if len(parts) > 1:
            payloads.append(" ".join(parts))
        return payloads

    def _heard(self, payload: str) -> None:
        node, *parts = payload.split(" ")
        if node == self.node:
            return
        now = self.clock()
        for part in parts:
            channel_text, _, ids = part.partition(":")
            try:
                channel = int(channel_text)
                viewers = [int(v) for v in ids.split(",") if v]
            except ValueError:
                log.warning("a watchers' notice of another form: %r", payload[:80])
                return
            newly = not self.watched_elsewhere(channel)
            there = self._there.setdefault(channel, {})
            before = there.get(node, ([], 0.0))[0]
            if viewers:
                there[node] = (viewers, now)
            else:
                there.pop(node, None)
                if not there:
                    del self._there[channel]
            if viewers != before:
                self.changed(channel)
            if viewers and newly:
                self.arrived(channel)
