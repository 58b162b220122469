"""The service tier: a GameService alone, on a temporary store, its changes recorded."""

from __future__ import annotations

import pytest

from bot.game.access import Caller, Standing
from bot.game.audience import Audience
from bot.game.changes import Stream
from bot.game.service import GameService
from bot.game.timer import ManualTimer
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


class Members:
    """A gatekeeper that knows who is a member (everyone, unless `gone` says otherwise)."""

    def __init__(self) -> None:
        self.gone: set[int] = set()
        self.asked: list[int] = []

    async def is_member(self, user_id: int, guild_id: int) -> bool:
        self.asked.append(user_id)
        return user_id not in self.gone


def caller(user: int, standing: Standing = MEMBER, **fields) -> Caller:
    return Caller(user, f"user{user}", GUILD, CHANNEL, standing, **fields)


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "service.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def timer() -> ManualTimer:
    """The service's time, standing still until the test moves it on (`timer.advance`)."""
    return ManualTimer()


@pytest.fixture
async def service(store, timer):
    """A GameService with a recording subscriber (`service.recorder`), dealt from a seed,
    on the test's `timer`."""
    stream = Stream()
    recorder = Recorder()
    stream.subscribe(recorder)
    members = Members()
    service = GameService(store, stream, Audience(store), seed=7, gatekeeper=members, timer=timer)
    service.recorder, service.members = recorder, members
    yield service
    service.stop_timers()
