"""The service tier: a GameService alone, on a temporary store, its changes recorded."""

from __future__ import annotations

import pytest

from bot.game.access import Caller, Standing
from bot.game.audience import Audience
from bot.game.changes import Stream
from bot.game.service import GameService
from bot.store.store import Store

GUILD, CHANNEL = 10, 20
#: A member who may see and post in the channel.
MEMBER = Standing(member=True, view=True, send=True)


class Recorder:
    """Every change the service published, in order."""

    def __init__(self) -> None:
        self.changes: list = []

    def __call__(self, change) -> None:
        self.changes.append(change)

    def kinds(self) -> list[str]:
        return [type(change).__name__ for change in self.changes]


def caller(user: int, standing: Standing = MEMBER, **fields) -> Caller:
    return Caller(user, f"user{user}", GUILD, CHANNEL, standing, **fields)


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "service.sqlite3")
    yield store
    await store.close()


@pytest.fixture
async def service(store):
    """A GameService with a recording subscriber (`service.recorder`), dealt from a seed."""
    stream = Stream()
    recorder = Recorder()
    stream.subscribe(recorder)
    service = GameService(store, stream, Audience(store), seed=7)
    service.recorder = recorder
    yield service
    service.stop_timers()
