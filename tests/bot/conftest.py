"""Fixtures for end-to-end tests: the real bot, in this process, against the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import build as build_bot
from bot.config import Config
from bot.discord.client import ApophisBot
from bot.game.timer import ManualTimer, Timer
from tests.bot.helpers import Scene


def make_config(fake, database, *, time_scale: float = 1.0, **env: str) -> Config:
    """The bot's configuration for the fake; `env` adds variables (APOPHIS_SHARD_COUNT=...)."""
    return Config.from_env(
        {
            "DISCORD_TOKEN": fake.bot_token,
            "APOPHIS_DATABASE": str(database),
            "APOPHIS_TIME_SCALE": str(time_scale),
            "DISCORD_API_BASE_URL": fake.api_base_url,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            **env,
        }
    )


@pytest.fixture
def database(tmp_path):
    return tmp_path / "apophis.sqlite3"


@pytest.fixture
def timer() -> ManualTimer:
    """The game's time, standing still until the test moves it on (`await timer.advance(s)`):
    a bot built with `make_bot(timer=timer)` (or a scene marked `timer=True`) runs on it."""
    return ManualTimer()


@pytest.fixture
def make_bot(fake_discord, database):
    """Build a bot on the test database (call it again for a 'restarted' bot); `timer`: the
    game's time (bot.game.timer), the event loop's unless given."""

    def build(time_scale: float = 1.0, timer: Timer | None = None, **env: str) -> ApophisBot:
        config = make_config(fake_discord, database, time_scale=time_scale, **env)
        return build_bot(config, guild_ready_timeout=0.05, timer=timer).discord

    return build


@pytest.fixture
async def scene(request, fake_discord, make_bot) -> AsyncIterator[Scene]:
    """The bot built by `make_bot`, logged in to the fake Discord and ready, in a Scene: one
    server, its #apophis channel, and ann, bob, cid and dee; closed after the test.

    ``@pytest.mark.scene(names=("ann",), time_scale=120, APOPHIS_...="...")`` picks the
    members and the bot's settings (the arguments of `make_bot`); ``timer=True`` runs the
    bot on the test's `timer`. A test that arranges the world before the bot connects, or
    checks after it stopped, builds its own."""
    marker = request.node.get_closest_marker("scene")
    settings = dict(marker.kwargs) if marker else {}
    names = settings.pop("names", ("ann", "bob", "cid", "dee"))
    if settings.pop("timer", False):
        settings["timer"] = request.getfixturevalue("timer")
    bot = make_bot(**settings)
    built = Scene(fake_discord, bot, names=names)
    async with fake_discord.connected(bot):
        yield built


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "scene(names=..., timer=False, **make_bot_arguments): the members and bot of `scene`",
    )
