"""Configuration from the environment (or a .env file), checked once at start-up."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

from bot.store.records import Shards
from bot.store.sqlite import DEFAULT_DATABASE

#: Requests a second we allow ourselves out of Discord's global 50 (APOPHIS_GLOBAL_RATE).
GLOBAL_RATE = 45.0
#: Discord's own limit on requests a second, the most APOPHIS_GLOBAL_RATE may be.
DISCORD_GLOBAL_LIMIT = 50.0

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
    database: str
    dev_guild: int | None
    log_level: int
    api_base_url: str | None
    gateway_url: str | None
    time_scale: float
    #: Discord shards: how many the bot has (None: as Discord recommends) and which of
    #: them this process runs (None: all of them).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: How many processes share the bot, and the requests a second this one may send
    #: against Discord's global limit (its share of it).
    processes: int = 1
    global_rate: float = GLOBAL_RATE

    @property
    def shards(self) -> Shards:
        """The shards whose games this process owns (all of them unless told otherwise)."""
        if self.shard_ids is None or self.shard_count is None:
            return Shards()
        return Shards(self.shard_ids, self.shard_count)

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

        shard_count, shard_ids = _shards(get("APOPHIS_SHARD_COUNT"), get("APOPHIS_SHARD_IDS"))
        processes = _positive_int("APOPHIS_PROCESSES", get("APOPHIS_PROCESSES") or "1")
        rate_text = get("APOPHIS_GLOBAL_RATE")
        global_rate = GLOBAL_RATE / processes
        if rate_text:
            try:
                global_rate = float(rate_text)
            except ValueError:
                global_rate = 0.0
            if not 0 < global_rate <= DISCORD_GLOBAL_LIMIT:
                raise ConfigError(
                    "APOPHIS_GLOBAL_RATE must be the requests a second this process may send "
                    f"(more than 0, at most {DISCORD_GLOBAL_LIMIT:g}), not {rate_text!r}."
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
            database=get("APOPHIS_DATABASE") or DEFAULT_DATABASE,
            dev_guild=int(dev_guild) if dev_guild else None,
            log_level=level,
            api_base_url=get("DISCORD_API_BASE_URL") or None,
            gateway_url=get("DISCORD_GATEWAY_URL") or None,
            time_scale=time_scale,
            shard_count=shard_count,
            shard_ids=shard_ids,
            processes=processes,
            global_rate=global_rate,
            seed=int(seed_text) if seed_text else None,
        )


def _positive_int(name: str, text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(f"{name} must be a whole number, 1 or more, not {text!r}.")
    return int(text)


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """APOPHIS_SHARD_COUNT and APOPHIS_SHARD_IDS (``0-3``, ``0,2`` or both, ``0-1,4``)."""
    count = _positive_int("APOPHIS_SHARD_COUNT", count_text) if count_text else None
    if not ids_text:
        return count, None
    if count is None:
        raise ConfigError(
            "APOPHIS_SHARD_IDS needs APOPHIS_SHARD_COUNT: the shards of every process "
            "must be counted the same way."
        )
    ids: list[int] = []
    for part in ids_text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError(
                f"APOPHIS_SHARD_IDS must be shard numbers and ranges such as 0-3 or 0,2, "
                f"not {ids_text!r}."
            )
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ConfigError(f"APOPHIS_SHARD_IDS: the range {part} runs backwards.")
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"APOPHIS_SHARD_IDS names a shard twice: {ids_text!r}.")
    if max(ids) >= count:
        raise ConfigError(
            f"APOPHIS_SHARD_IDS: shard {max(ids)} does not exist with APOPHIS_SHARD_COUNT="
            f"{count} (shards are numbered 0 to {count - 1})."
        )
    return count, tuple(sorted(ids))
