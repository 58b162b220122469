"""The counters every layer bumps (Prometheus instruments), and the game a log line is about.

Counters and histograms on hot paths (an action, a request to Discord, a database call) are
module-level instruments, each one `inc` or `observe`, with labels from small fixed sets.
They are registered and served, with what is read at scrape time (games by state, the
outbox's backlog, the table's sockets), by bot.serve_metrics; see docs/hosting.md,
"Metrics and health".
"""

from __future__ import annotations

from contextvars import ContextVar

from prometheus_client import Counter, Histogram

#: The game (id, server id or None) the running task works on, for log lines (bot.app).
ABOUT: ContextVar[tuple[int, int | None] | None] = ContextVar("apophis_about", default=None)

# ------------------------------------------------------------ the hot paths' instruments

ACTIONS = Counter(
    "apophis_actions",
    "Players' and crewmates' actions, by result (applied, refused, failed).",
    ["result"],
    registry=None,
)
ACTION_SECONDS = Histogram(
    "apophis_action_seconds",
    "Time the game service took to answer an action (its game's lock, the rules, the "
    "commit), applied or not.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=None,
)
DISCORD_REQUESTS = Counter(
    "apophis_discord_requests",
    "HTTP requests sent to Discord, by route class.",
    ["route_class"],
    registry=None,
)
DISCORD_429 = Counter(
    "apophis_discord_429",
    "Requests Discord answered 429 (too many requests), by route class.",
    ["route_class"],
    registry=None,
)
DB_SECONDS = Histogram(
    "apophis_db_seconds",
    "Time of one database transaction, by kind (read, write), its wait for the database included.",
    ["kind"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=None,
)
APPLIED, REFUSED, FAILED = (ACTIONS.labels(result) for result in ("applied", "refused", "failed"))
DB_READ, DB_WRITE = DB_SECONDS.labels("read"), DB_SECONDS.labels("write")
#: Every instrument above, for a registry (bot.serve_metrics).
INSTRUMENTS = (ACTIONS, ACTION_SECONDS, DISCORD_REQUESTS, DISCORD_429, DB_SECONDS)

#: The route classes, from the first part of a request's path after the API's version.
ROUTE_CLASSES = {
    "interactions": "interaction",
    "webhooks": "interaction",  # the bot's only webhooks are interaction tokens
    "channels": "channel",
    "guilds": "guild",
    "users": "user",
    "applications": "command",
    "gateway": "gateway",
}
#: A path whose class is "channel" is a message's when one of its parts is this.
MESSAGES = "messages"


def route_class(path: str) -> str:
    """The class of a request to Discord (`path` after the host), from a small fixed set."""
    parts = path.split("/")
    for index, part in enumerate(parts):
        kind = ROUTE_CLASSES.get(part)
        if kind is None:
            continue
        if kind == "channel" and MESSAGES in parts[index + 2 : index + 3]:
            return "message"
        return kind
    return "other"
