"""Configuration from the environment (or a .env file), checked once at start-up."""

from __future__ import annotations

import errno
import logging
import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from bot.store.location import database_named
from bot.store.postgres import is_postgresql
from bot.store.records import Shards

#: Requests a second we allow ourselves out of Discord's global 50 (APOPHIS_GLOBAL_RATE).
GLOBAL_RATE = 45.0
#: Discord's own limit on requests a second, the most APOPHIS_GLOBAL_RATE may be.
DISCORD_GLOBAL_LIMIT = 50.0

#: APOPHIS_SHARD_IDS's word for a process that runs no shard until another's process stops.
STANDBY = "standby"

#: The hosts that name this machine: a public URL on one of them binds the web server there only.
LOCAL_HOSTS = frozenset(("localhost", "127.0.0.1", "::1"))
#: Where APOPHIS_CLIENT_ID is found.
CLIENT_HELP = (
    "It is the Application ID (the OAuth2 page's Client ID) of your application at "
    "https://discord.com/developers/applications."
)
#: APOPHIS_ACTIVITY's words for on and off.
SWITCH = {word: True for word in ("on", "true", "yes", "1")} | {
    word: False for word in ("off", "false", "no", "0")
}

TOKEN_HELP = (
    "Create an application at https://discord.com/developers/applications, open its "
    "Bot page, press 'Reset Token', and put the token in a .env file as "
    "DISCORD_TOKEN=... (`apophis-bot example-env .env` writes one with every setting)."
)


class ConfigError(Exception):
    """The configuration cannot work; the message says what to fix."""


def cannot_listen(exc: OSError, host: str, port: int, settings: tuple[str, str]) -> ConfigError:
    """Why a server could not listen at `host`:`port`, as the setting to change: `settings`
    names the host's and the port's (APOPHIS_WEB_HOST, APOPHIS_WEB_PORT, say)."""
    host_setting, port_setting = settings
    if isinstance(exc, socket.gaierror):
        return ConfigError(
            f"{host_setting}={host} is not a name this machine can resolve ({exc.strerror}): "
            "give one of its addresses, such as 127.0.0.1 (this machine only) or 0.0.0.0."
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return ConfigError(
            f"{host_setting}={host} is not an address of this machine: give one of its own, "
            "such as 127.0.0.1 (this machine only) or 0.0.0.0 (all of them)."
        )
    if exc.errno == errno.EADDRINUSE:
        return ConfigError(
            f"{port_setting}={port} is taken: another program listens on that port at {host}. "
            "Stop it, or choose another port."
        )
    if exc.errno == errno.EACCES:
        return ConfigError(
            f"{port_setting}={port} is a privileged port, which this process may not listen "
            "on: choose one from 1024 up (a reverse proxy can serve ports 80 and 443)."
        )
    return ConfigError(
        f"Cannot listen on {host_setting}={host}, {port_setting}={port} ({exc.strerror or exc})."
    )


@dataclass(frozen=True, slots=True)
class Config:
    token: str = field(repr=False)
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
    #: A standby (APOPHIS_SHARD_IDS=standby) runs no shard until one's process stops: it
    #: then takes over that process's shards (bot.holding).
    standby: bool = False

    @property
    def shards(self) -> Shards:
        """The shards whose games this process owns (all of them unless told otherwise;
        a standby's are those it takes over, bot.holding)."""
        if self.shard_ids is None or self.shard_count is None:
            return Shards()
        return Shards(self.shard_ids, self.shard_count)

    #: Deals every game from this seed (with the game's id), for reproducible demos.
    seed: int | None = None
    #: The live table (bot.web): the port its web server listens on (None: no web server,
    #: no live table), the address it binds, and its public base URL (no trailing slash).
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    public_url: str | None = None
    #: The application's OAuth2 client id and secret, to sign people in to the live table.
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    #: Whether /apophis table and the Table button launch the live table as a Discord
    #: Activity (the application has Activities enabled), rather than give its link.
    activity: bool = False
    #: Metrics and health (bot.metrics): whether they are served, on a port of their own
    #: (None: on the live table's server) bound to `metrics_host`; log lines as JSON.
    metrics: bool = False
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    log_json: bool = False
    #: Whether this process serves Discord's messages (logs in to Discord's gateway); off,
    #: it serves the live table alone, asking Discord's REST API who may watch and play.
    discord: bool = True

    @property
    def web(self) -> bool:
        """Whether the live table is served (a web port is set)."""
        return self.web_port is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read and check every setting; ConfigError names the first one that is wrong."""
        env = os.environ if env is None else env

        def get(name: str) -> str:
            return env.get(name, "").strip()

        token = _token(get("DISCORD_TOKEN"))
        dev_guild = _dev_guild(get("APOPHIS_DEV_GUILD"))
        level = _log_level(get("APOPHIS_LOG_LEVEL"))
        time_scale = _time_scale(get("APOPHIS_TIME_SCALE"))
        standby = get("APOPHIS_SHARD_IDS").lower() == STANDBY
        shard_count, shard_ids = _shards(
            get("APOPHIS_SHARD_COUNT"), "" if standby else get("APOPHIS_SHARD_IDS")
        )
        processes = _positive_int("APOPHIS_PROCESSES", get("APOPHIS_PROCESSES") or "1")
        global_rate = _global_rate(get("APOPHIS_GLOBAL_RATE"), processes)
        seed = _seed(get("APOPHIS_SEED"))
        api_base_url, gateway_url = (
            _discord_url(name, get(name))
            for name in ("DISCORD_API_BASE_URL", "DISCORD_GATEWAY_URL")
        )
        web = _web(get)
        discord = _discord(get("APOPHIS_DISCORD"), web["web_port"])
        log_json = _log_json(get("APOPHIS_LOG_FORMAT"))
        database = _database(get("APOPHIS_DATABASE"))
        if standby:
            _standby(database, shard_count)
        else:
            shard_ids = _several(processes, database, shard_count, shard_ids, discord=discord)
        return cls(
            token=token,
            database=database,
            dev_guild=dev_guild,
            log_level=level,
            api_base_url=api_base_url,
            gateway_url=gateway_url,
            time_scale=time_scale,
            shard_count=shard_count,
            shard_ids=shard_ids,
            processes=processes,
            global_rate=global_rate,
            standby=standby,
            seed=seed,
            log_json=log_json,
            discord=discord,
            **web,
            **_metrics(get, web["web_port"]),
        )


def _token(token: str) -> str:
    """DISCORD_TOKEN checked: set, and shaped like a bot token."""
    if not token:
        raise ConfigError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}")
    if any(ch.isspace() for ch in token) or len(token) < 20:
        raise ConfigError(f"DISCORD_TOKEN does not look like a bot token. {TOKEN_HELP}")
    return token


def _database(text: str) -> str:
    """APOPHIS_DATABASE: an SQLite file (a path or a sqlite: URL) or a PostgreSQL URL."""
    try:
        return database_named(text)
    except ValueError as exc:
        raise ConfigError(f"APOPHIS_DATABASE {exc}") from None


def _dev_guild(text: str) -> int | None:
    """APOPHIS_DEV_GUILD: a server id, or None."""
    if text and not text.isdigit():
        raise ConfigError("APOPHIS_DEV_GUILD must be a server id (a number), or empty.")
    return int(text) if text else None


def _log_level(text: str) -> int:
    """APOPHIS_LOG_LEVEL as logging's number (INFO when empty)."""
    level_name = (text or "INFO").upper()
    level = logging.getLevelName(level_name)
    if not isinstance(level, int):
        raise ConfigError(
            f"APOPHIS_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level_name!r}."
        )
    return level


def _time_scale(text: str) -> float:
    """APOPHIS_TIME_SCALE: how much faster than real time the game's clocks run (1 when
    empty)."""
    scale_text = text or "1"
    try:
        time_scale = float(scale_text)
    except ValueError:
        time_scale = 0.0
    if not 0 < time_scale <= 10_000:
        raise ConfigError(
            f"APOPHIS_TIME_SCALE must be a positive number (1 is real time), not {scale_text!r}."
        )
    return time_scale


def _global_rate(text: str, processes: int) -> float:
    """APOPHIS_GLOBAL_RATE: the requests a second this process may send (when empty, its
    share of GLOBAL_RATE among `processes`)."""
    if not text:
        return GLOBAL_RATE / processes
    try:
        global_rate = float(text)
    except ValueError:
        global_rate = 0.0
    if not 0 < global_rate <= DISCORD_GLOBAL_LIMIT:
        raise ConfigError(
            "APOPHIS_GLOBAL_RATE must be the requests a second this process may send "
            f"(more than 0, at most {DISCORD_GLOBAL_LIMIT:g}), not {text!r}."
        )
    return global_rate


def _seed(text: str) -> int | None:
    """APOPHIS_SEED: a whole number, or None."""
    if text and not text.isdigit():
        raise ConfigError(f"APOPHIS_SEED must be a whole number, or empty, not {text!r}.")
    return int(text) if text else None


def _discord_url(name: str, text: str) -> str | None:
    """DISCORD_API_BASE_URL or DISCORD_GATEWAY_URL: a full URL, or None (Discord's own)."""
    if text and "://" not in text:
        raise ConfigError(f"{name} must be a full URL such as http://host:port/...")
    return text or None


def _discord(text: str, web_port: int | None) -> bool:
    """APOPHIS_DISCORD: whether this process serves Discord's messages (on when empty);
    off needs the live table it then serves alone."""
    discord_text = text.lower() or "on"
    if discord_text not in SWITCH:
        raise ConfigError(f"APOPHIS_DISCORD must be on or off, not {discord_text!r}.")
    if not SWITCH[discord_text] and web_port is None:
        raise ConfigError(
            "APOPHIS_DISCORD=off serves the live table alone: set APOPHIS_WEB_PORT too."
        )
    return SWITCH[discord_text]


def _log_json(text: str) -> bool:
    """APOPHIS_LOG_FORMAT: whether log lines are JSON (text when empty)."""
    log_format = text.lower() or "text"
    if log_format not in ("text", "json"):
        raise ConfigError(f"APOPHIS_LOG_FORMAT must be text or json, not {log_format!r}.")
    return log_format == "json"


def logs_as_json(env: Mapping[str, str] | None = None) -> bool:
    """Whether APOPHIS_LOG_FORMAT asks for JSON, read on its own: for the line telling why
    the other settings were refused. False when it is wrong itself (that line says so)."""
    try:
        return _log_json((os.environ if env is None else env).get("APOPHIS_LOG_FORMAT", "").strip())
    except ConfigError:
        return False


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


def _several(
    processes: int,
    database: str,
    count: int | None,
    ids: tuple[int, ...] | None,
    *,
    discord: bool,
) -> tuple[int, ...] | None:
    """APOPHIS_PROCESSES above 1, checked with what it needs: one PostgreSQL database, and
    shards of its own for a process that logs in to Discord (some, not all). The live table
    alone (APOPHIS_DISCORD=off) owns no shard then: it serves every shard's tables and
    hands their commands to their owners (bot.game.relay). The shard ids this one runs."""
    if processes == 1:
        return ids
    if not is_postgresql(database):
        raise ConfigError(
            f"APOPHIS_PROCESSES={processes} needs a PostgreSQL database shared by the "
            "processes (APOPHIS_DATABASE=postgresql://...): an SQLite file serves one process."
        )
    if not discord:
        return _table_alone(processes, count, ids)
    if count is None or ids is None:
        raise ConfigError(
            f"APOPHIS_PROCESSES={processes} needs APOPHIS_SHARD_COUNT and APOPHIS_SHARD_IDS "
            "(this process's shards): without them every process would run every shard."
        )
    if len(ids) == count:
        raise ConfigError(
            f"APOPHIS_SHARD_IDS names every shard (0 to {count - 1}) while "
            f"APOPHIS_PROCESSES={processes}: the other processes would have none. Give each "
            "process shards of its own."
        )
    return ids


def _table_alone(processes: int, count: int | None, ids: tuple[int, ...] | None) -> tuple[int, ...]:
    """The live table alone among several processes: no shard of its own (none given)."""
    if count is None:
        raise ConfigError(
            f"APOPHIS_DISCORD=off with APOPHIS_PROCESSES={processes} needs APOPHIS_SHARD_COUNT "
            "(the same as the other processes'), to know which process owns each game."
        )
    if ids is not None:
        raise ConfigError(
            f"APOPHIS_DISCORD=off with APOPHIS_PROCESSES={processes}: leave APOPHIS_SHARD_IDS "
            "unset. A process without Discord's gateway runs no shard; it serves the live table "
            "of every shard and hands each command to the process that owns the game."
        )
    return ()


def _standby(database: str, count: int | None) -> None:
    """APOPHIS_SHARD_IDS=standby, checked with what it needs: the shards counted, and a
    PostgreSQL database, where the other processes hold their shards' leases."""
    if count is None:
        raise ConfigError(
            "APOPHIS_SHARD_IDS=standby needs APOPHIS_SHARD_COUNT (the same as the other "
            "processes'): a standby takes over the shards of a process that stops."
        )
    if not is_postgresql(database):
        raise ConfigError(
            "APOPHIS_SHARD_IDS=standby needs the PostgreSQL database the other processes "
            "share (APOPHIS_DATABASE=postgresql://...): an SQLite file serves one process."
        )


def _web(get: Callable[[str], str]) -> dict[str, Any]:
    """The live table's settings (APOPHIS_WEB_PORT and the rest), checked together."""
    port_text, url_text = get("APOPHIS_WEB_PORT"), get("APOPHIS_PUBLIC_URL")
    client_id, secret = get("APOPHIS_CLIENT_ID") or None, get("APOPHIS_CLIENT_SECRET") or None
    port = None
    if port_text:
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise ConfigError(
                "APOPHIS_WEB_PORT must be a port number from 1 to 65535 (or empty: no live "
                f"table), not {port_text!r}."
            )
        port = int(port_text)
    if url_text and port is None:
        raise ConfigError(
            "APOPHIS_PUBLIC_URL is set but APOPHIS_WEB_PORT is not: the live table is served "
            "by the bot itself, on that port. Set both, or neither."
        )
    public_url = _public_url(url_text) if url_text else None
    if port is not None and public_url is None:
        public_url = f"http://localhost:{port}"
    if client_id is not None and not (client_id.isdigit() and len(client_id) <= 20):
        raise ConfigError(f"APOPHIS_CLIENT_ID must be a number. {CLIENT_HELP}")
    if secret is not None and client_id is None:
        raise ConfigError(
            "APOPHIS_CLIENT_SECRET is set but APOPHIS_CLIENT_ID is not: set both (the OAuth2 "
            f"page's Client ID and Client Secret). {CLIENT_HELP}"
        )
    activity_text = get("APOPHIS_ACTIVITY").lower() or "off"
    if activity_text not in SWITCH:
        raise ConfigError(f"APOPHIS_ACTIVITY must be on or off, not {activity_text!r}.")
    activity = SWITCH[activity_text]
    missing = [
        name
        for name, value in (("APOPHIS_CLIENT_ID", client_id), ("APOPHIS_WEB_PORT", port))
        if value is None
    ]
    if activity and missing:
        raise ConfigError(
            f"APOPHIS_ACTIVITY=on needs {' and '.join(missing)}: the Activity is the live "
            "table, served by the bot, for the application with that client id "
            "(see docs/live-table.md)."
        )
    host = get("APOPHIS_WEB_HOST")
    if host and (any(ch.isspace() for ch in host) or "/" in host):
        raise ConfigError(
            f"APOPHIS_WEB_HOST must be an address to listen on, such as 0.0.0.0 or "
            f"127.0.0.1, not {host!r}."
        )
    if not host:  # only this machine, for a table only this machine can reach
        local = public_url is None or urlsplit(public_url).hostname in LOCAL_HOSTS
        host = "127.0.0.1" if local else "0.0.0.0"
    return {
        "web_port": port,
        "web_host": host,
        "public_url": public_url,
        "client_id": client_id,
        "client_secret": secret,
        "activity": activity,
    }


def _metrics(get: Callable[[str], str], web_port: int | None) -> dict[str, Any]:
    """APOPHIS_METRICS, APOPHIS_METRICS_PORT and APOPHIS_METRICS_HOST, checked together."""
    switch, port_text, host = (
        get("APOPHIS_METRICS").lower(),
        get("APOPHIS_METRICS_PORT"),
        get("APOPHIS_METRICS_HOST"),
    )
    if switch and switch not in SWITCH:
        raise ConfigError(f"APOPHIS_METRICS must be on or off, not {switch!r}.")
    port = None
    if port_text:
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise ConfigError(
                "APOPHIS_METRICS_PORT must be a port number from 1 to 65535 (or empty), "
                f"not {port_text!r}."
            )
        port = int(port_text)
        if port == web_port:
            raise ConfigError(
                "APOPHIS_METRICS_PORT is the live table's port (APOPHIS_WEB_PORT): leave it "
                "empty to serve the metrics there, or pick another port."
            )
    on = SWITCH[switch] if switch else port is not None
    if on and port is None and web_port is None:
        raise ConfigError(
            "APOPHIS_METRICS=on needs a port: APOPHIS_METRICS_PORT, or the live table's "
            "(APOPHIS_WEB_PORT), whose server then serves them."
        )
    if host and (any(ch.isspace() for ch in host) or "/" in host):
        raise ConfigError(
            f"APOPHIS_METRICS_HOST must be an address to listen on, such as 127.0.0.1 or "
            f"0.0.0.0, not {host!r}."
        )
    if host and port is None:
        raise ConfigError(
            "APOPHIS_METRICS_HOST is set but APOPHIS_METRICS_PORT is not: on the live "
            "table's server the metrics answer this machine only. Set a port of their own."
        )
    return {
        "metrics": on,
        "metrics_port": port if on else None,
        "metrics_host": host or "127.0.0.1",
    }


def _public_url(text: str) -> str:
    """APOPHIS_PUBLIC_URL checked: http(s)://host[:port], the root of a host (the table's
    pages and socket are at its root), without a trailing slash."""
    wrong = ConfigError(
        "APOPHIS_PUBLIC_URL must be the address people reach the live table at, the root of "
        f"a host such as https://apophis.example.com or http://localhost:8080, not {text!r}."
    )
    try:
        parts = urlsplit(text)
        usable = (
            parts.scheme in ("http", "https")
            and bool(parts.hostname)
            and parts.port != 0  # read: a port out of range raises
            and parts.username is None
            and parts.path in ("", "/")
            and not any(ch.isspace() or ch in "?#" for ch in text)
        )
    except ValueError:
        usable = False
    if not usable:
        raise wrong
    return text.rstrip("/")
