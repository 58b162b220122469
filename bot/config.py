"""Configuration from the environment (or a .env file), checked once at start-up."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.store import DEFAULT_DATABASE

TOKEN_HELP = (
    "Create an application at https://discord.com/developers/applications, open its "
    "Bot page, press 'Reset Token', and put the token in a .env file as "
    "DISCORD_TOKEN=... (see .env.example)."
)


class ConfigError(Exception):
    """The configuration cannot work; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: Path
    dev_guild: int | None
    log_level: int
    api_base_url: str | None
    gateway_url: str | None
    time_scale: float
    #: Deals every game from this seed (with the game's id), for reproducible demos.
    seed: int | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read and check every setting; ConfigError names the first one that is wrong."""
        env = os.environ if env is None else env

        def get(name: str) -> str:
            return env.get(name, "").strip()

        token = get("DISCORD_TOKEN")
        if not token:
            raise ConfigError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}")
        if any(ch.isspace() for ch in token) or len(token) < 20:
            raise ConfigError(f"DISCORD_TOKEN does not look like a bot token. {TOKEN_HELP}")

        dev_guild = get("APOPHIS_DEV_GUILD")
        if dev_guild and not dev_guild.isdigit():
            raise ConfigError("APOPHIS_DEV_GUILD must be a server id (a number), or empty.")

        level_name = (get("APOPHIS_LOG_LEVEL") or "INFO").upper()
        level = logging.getLevelName(level_name)
        if not isinstance(level, int):
            raise ConfigError(
                f"APOPHIS_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level_name!r}."
            )

        scale_text = get("APOPHIS_TIME_SCALE") or "1"
        try:
            time_scale = float(scale_text)
        except ValueError:
            time_scale = 0.0
        if not 0 < time_scale <= 10_000:
            raise ConfigError(
                f"APOPHIS_TIME_SCALE must be a positive number (1 is real time), "
                f"not {scale_text!r}."
            )

        seed_text = get("APOPHIS_SEED")
        if seed_text and not seed_text.isdigit():
            raise ConfigError(f"APOPHIS_SEED must be a whole number, or empty, not {seed_text!r}.")

        for name in ("DISCORD_API_BASE_URL", "DISCORD_GATEWAY_URL"):
            value = get(name)
            if value and "://" not in value:
                raise ConfigError(f"{name} must be a full URL such as http://host:port/...")

        return cls(
            token=token,
            database=Path(get("APOPHIS_DATABASE") or DEFAULT_DATABASE),
            dev_guild=int(dev_guild) if dev_guild else None,
            log_level=level,
            api_base_url=get("DISCORD_API_BASE_URL") or None,
            gateway_url=get("DISCORD_GATEWAY_URL") or None,
            time_scale=time_scale,
            seed=int(seed_text) if seed_text else None,
        )
