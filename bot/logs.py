"""How the process logs: to stderr, lines of text or one JSON object a line, libraries kept quiet.

`JsonLines` names the game, its server and its shard of each line that is about one
(bot.metrics.ABOUT). At DEBUG, discord.py and aiosqlite stay at INFO, and discord.py's two
warnings that voice is not supported (the bot has no voice) are never logged (`quiet_libraries`).
"""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import Any

import orjson

from bot.metrics import ABOUT
from bot.store.records import shard_of


def configure_logging(level: int, json: bool = False, shard_count: int | None = None) -> None:
    """Log to stderr at `level`: lines of text, or with `json` one JSON object a line."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        JsonLines(shard_count)
        if json
        else logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    )
    logging.basicConfig(level=level, handlers=[handler])
    quiet_libraries(level)


#: discord.py's warnings at every start that voice's libraries are missing: the bot has no
#: voice, and a host alerting on WARNING would be paged for nothing.
NO_VOICE = frozenset(
    (
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    )
)


def quiet_libraries(level: int) -> None:
    """Libraries at INFO at least, whatever `level`: at DEBUG discord.py logs every gateway
    event and request (interaction tokens, hands in DMs), aiosqlite every statement with its
    arguments (games' states). Our own DEBUG stays readable, and tells neither. discord.py's
    warnings that voice is not supported (NO_VOICE) are dropped, and nothing else."""
    for library in ("discord", "aiosqlite"):
        logging.getLogger(library).setLevel(max(level, logging.INFO))
    logging.getLogger("discord.client").addFilter(_without_voice)


def _without_voice(record: logging.LogRecord) -> bool:
    """Whether a record of discord.py's client is logged: all but NO_VOICE's."""
    return record.msg not in NO_VOICE


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and the game,
    its server and its shard when the record names them (``extra={"game": ...}``) or was
    logged by a task working on a game (bot.metrics.ABOUT); `exception`, a traceback."""

    def __init__(self, shard_count: int | None = None) -> None:
        super().__init__()
        self.shard_count = shard_count or 1

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        about = ABOUT.get()
        game = getattr(record, "game", None) or (about and about[0])
        guild = getattr(record, "guild", None) or (about and about[1])
        if game:
            line["game"] = game
        if guild:
            line["guild"] = guild
            line["shard"] = shard_of(guild, self.shard_count)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def say_why_it_stopped(why: str, json: bool = False) -> None:
    """The process's last line, on stderr: why it stops (`apophis-bot: why`), or with `json`
    a log line like the others (level ERROR), so that a JSON log stays JSON to its end."""
    if json:
        record = logging.LogRecord("bot", logging.ERROR, __file__, 0, why, None, None)
        print(JsonLines().format(record), file=sys.stderr)
    else:
        print(f"apophis-bot: {why}", file=sys.stderr)
