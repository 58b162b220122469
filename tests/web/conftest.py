"""Fixtures for the web table: the game core and its web door (`make_table`, no Discord
client at all: a process with APOPHIS_DISCORD=off), or both doors (`make_web_bot`), against
the fake Discord."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

from bot.app import App
from bot.app import build as build_app
from devtools.livetable import free_port
from tests.bot.conftest import make_config

if TYPE_CHECKING:
    from devtools.fakediscord import FakeDiscord


@pytest.fixture
def database(tmp_path):
    return tmp_path / "apophis.sqlite3"


@pytest.fixture
def web_port() -> int:
    return free_port()


@pytest.fixture
def make_web_bot(fake_discord, database, web_port):
    """Build the bot with Discord's messages and its web table on `web_port` (again for a
    'restarted' bot): `app.discord` is connected by `fake_discord.connected`, which
    starts the core and the web door with it."""

    def build(time_scale: float = 1.0, **env: str) -> App:
        settings = {
            "APOPHIS_WEB_PORT": str(web_port),
            "APOPHIS_CLIENT_ID": str(fake_discord.world.application_id),
            "APOPHIS_CLIENT_SECRET": "fake-client-secret",
            **env,
        }
        config = make_config(fake_discord, database, time_scale=time_scale, **settings)
        return build_app(config, guild_ready_timeout=0.05)

    return build


@pytest.fixture
def make_table(make_web_bot):
    """Build the core with its web door alone (APOPHIS_DISCORD=off): no Discord client, no
    gateway; run it with `serving`."""

    def build(time_scale: float = 1.0, **env: str) -> App:
        return make_web_bot(time_scale, APOPHIS_DISCORD="off", **env)

    return build


def shared_process(fake: FakeDiscord, database: object, **env: str) -> App:
    """One of two processes of one bot on one PostgreSQL database (2 shards): the live table
    on a port of its own; `env`: its shard (APOPHIS_SHARD_IDS) or APOPHIS_DISCORD=off."""
    settings = {
        "APOPHIS_WEB_PORT": str(free_port()),
        "APOPHIS_CLIENT_ID": str(fake.world.application_id),
        "APOPHIS_CLIENT_SECRET": "fake-client-secret",
        "APOPHIS_PROCESSES": "2",
        "APOPHIS_SHARD_COUNT": "2",
        **env,
    }
    return build_app(make_config(fake, database, **settings), guild_ready_timeout=0.05)


@contextlib.asynccontextmanager
async def serving(fake: FakeDiscord, app: App) -> AsyncIterator[App]:
    """Start `app` as bot.app's run does (pointed at the fake), and stop it on exit."""
    with fake.patch_discord():
        try:
            await app.start()
            yield app
        finally:
            await app.stop()
