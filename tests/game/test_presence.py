"""Who watches where on the other processes: told, kept a while, forgotten after a silence,
and gone with a goodbye."""

from __future__ import annotations

import asyncio

from bot.game import presence as p
from bot.store.notices import MAX_PAYLOAD


class Board:
    """The database's notices between processes, in memory: every listener hears each one."""

    def __init__(self) -> None:
        self.heard: dict[str, list] = {}
        self.sent: list[str] = []
        self.reconnected = lambda: None

    async def listen(self, channel, heard) -> None:
        self.heard.setdefault(channel, []).append(heard)

    async def unlisten(self, channel) -> None: ...

    async def notify(self, channel, payload) -> None:
        assert len(payload.encode()) <= MAX_PAYLOAD
        self.sent.append(payload)
        for heard in self.heard.get(channel, ()):
            heard(payload)

    async def close(self) -> None: ...


async def settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_watchers_are_told_kept_forgotten_after_a_silence_and_gone_with_a_goodbye():
    board, now = Board(), [0.0]
    here, there = (p.Presence(board, node, clock=lambda: now[0]) for node in ("a", "b"))
    changed: list[int] = []
    here.changed = changed.append
    await here.start()
    await there.start()
    there.watched(7, [11, 0])
    there.watched(8, [12])
    await settled()
    assert sorted(here.elsewhere(7)) == [0, 11] and here.elsewhere(8) == [12]
    assert there.elsewhere(7) == []  # a process does not count its own twice
    assert sorted(changed) == [7, 8]
    there.watched(8, [])
    await settled()
    assert here.elsewhere(8) == []
    now[0] += p.KEPT_SECONDS  # silent since: a process gone without a word
    assert here.elsewhere(7) == []
    there.watched(7, [11])
    await settled()
    assert here.elsewhere(7) == [11]
    await there.close()
    assert here.elsewhere(7) == []
    await here.close()


async def test_many_channels_go_in_payloads_under_the_limit():
    board = Board()
    here, there = p.Presence(board, "a"), p.Presence(board, "b")
    await here.start()
    watched = {channel: [10**17 + k for k in range(8)] for channel in range(10**17, 10**17 + 200)}
    await there._tell(watched)
    assert len(board.sent) > 1
    assert all(here.elsewhere(channel) == viewers for channel, viewers in watched.items())
    await here.close()
