"""The process's metrics and health, read from the core and its doors when scraped.

bot.app hands them here once composed; bot.serve_metrics serves what `Sources` reads: the
games by state, the outbox's backlog, the live table's sockets, whether every shard of
the Discord client is connected to the gateway, and whether the database can take the
games' writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.serve_metrics import Metrics, Sources

if TYPE_CHECKING:
    from bot.config import Config
    from bot.discord.client import ApophisBot
    from bot.game.core import GameCore
    from bot.web.server import WebTable


def watch(core: GameCore, bot: ApophisBot | None, web: WebTable | None, config: Config) -> Metrics:
    """The process's metrics, read from `core` and its doors when scraped: the Discord
    client `bot` (None with APOPHIS_DISCORD=off) and the live table `web` (None where it
    is not served)."""

    def games() -> list[str]:
        return [table.status for table in core.service.tables.values()] if core.serving else []

    def outbox() -> tuple[int, float]:
        return bot.backlog() if bot is not None else (0, 0.0)

    def sockets() -> int:  # those watching a table
        return sum(map(len, web.feed.viewers.values())) if web is not None else 0

    def gateway() -> str | None:
        if bot is None:  # the live table alone: no gateway to wait for
            return None
        if bot.is_closed():
            return "the bot is closed"
        if not bot.is_ready():
            return "not connected to Discord's gateway yet"
        down = sorted(shard for shard, info in bot.shards.items() if info.is_closed())
        if down:
            return f"shards {down} are not connected to Discord's gateway"
        return None

    async def database() -> None:
        await core.ready()

    sources = Sources(games, outbox, sockets, gateway, database)
    return Metrics(sources, host=config.metrics_host, port=config.metrics_port)
