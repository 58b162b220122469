"""Fixtures for the web table: the real bot with its web server, against the fake Discord."""

from __future__ import annotations

import pytest

from bot.app import build as build_bot
from bot.discord.client import ApophisBot
from devtools.livetable import free_port
from tests.bot.conftest import make_config


@pytest.fixture
def database(tmp_path):
    return tmp_path / "apophis.sqlite3"


@pytest.fixture
def web_port() -> int:
    return free_port()


@pytest.fixture
def make_web_bot(fake_discord, database, web_port):
    """Build a bot with its web table on `web_port` (again for a 'restarted' bot)."""

    def build(time_scale: float = 1.0, **env: str) -> ApophisBot:
        settings = {
            "APOPHIS_WEB_PORT": str(web_port),
            "APOPHIS_CLIENT_ID": str(fake_discord.world.application_id),
            "APOPHIS_CLIENT_SECRET": "fake-client-secret",
            **env,
        }
        config = make_config(fake_discord, database, time_scale=time_scale, **settings)
        return build_bot(config, guild_ready_timeout=0.05)

    return build
