"""Fixtures for end-to-end tests: the real bot, in this process, against the fake Discord."""

from __future__ import annotations

import pytest

from bot.app import build as build_bot
from bot.config import Config
from bot.discord.client import ApophisBot


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
def make_bot(fake_discord, database):
    """Build a bot on the test database (call it again for a 'restarted' bot)."""

    def build(time_scale: float = 1.0, **env: str) -> ApophisBot:
        config = make_config(fake_discord, database, time_scale=time_scale, **env)
        return build_bot(config, guild_ready_timeout=0.05)

    return build
