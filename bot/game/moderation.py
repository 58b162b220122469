"""Moderation: a turn skipped, a player removed, a lobby or game ended, a channel deleted.

What touches a game in progress goes through the service's action path (`Act`, or
`Apply` under the game's lock held here); a lobby's changes go through its Lobbies.
"""

from __future__ import annotations

from bot.errors import UserError
from bot.game.actions import Act, ActionResult, Apply, held
from bot.game.clocks import Clocks, stop_timers
from bot.game.lobbies import Lobbies
from bot.game.tables import Tables
from bot.table import Table

#: The reason recorded with a game (or lobby) ended because its channel was deleted.
CHANNEL_DELETED = "channel_deleted"


class Moderation:
    """A host's or moderator's say over a channel's lobby or game (see the module)."""

    def __init__(
        self, tables: Tables, lobbies: Lobbies, clocks: Clocks, *, act: Act, apply: Apply
    ) -> None:
        self.tables = tables
        self.lobbies = lobbies
        self.clocks = clocks
        self.act = act
        self.apply = apply

    async def skip(self, channel_id: int, by: int) -> ActionResult:
        return await self.act(channel_id, by, {"type": "skip_turn"}, as_player=False)

    async def kick(self, channel_id: int, by: int, player: int) -> ActionResult | Table:
        table = self.tables.table_in(channel_id)
        if table.status == "lobby":
            return await self.lobbies.unseat(
                table,
                player,
                host_refusal="error.host_cannot_be_removed",
                absent="error.member_not_seated",
            )
        if player not in table.seats:
            raise UserError("error.member_not_seated")
        action = {"type": "remove_player", "player": player}
        return await self.act(channel_id, by, action, as_player=False)

    async def end(self, channel_id: int, by: int, reason: str) -> Table:
        """End the channel's lobby or game without a result (recorded as abandoned)."""
        table = self.tables.table_in(channel_id)
        async with held(table):
            if table.status == "lobby":
                await self.lobbies.cancel(table)
                return table
        await self.act(channel_id, by, {"type": "end", "reason": reason}, as_player=False)
        return table

    async def channel_gone(self, channel_id: int) -> Table | None:
        """The channel was deleted: its lobby or game ends at once, as abandoned (the reason
        `CHANNEL_DELETED` in its log), in one transaction; its timers stop now. Retried as
        timers are until saved; the table ended, if the channel had one."""
        table = self.tables.by_channel.get(channel_id)
        if table is None:
            return None
        stop_timers(table)

        async def close(table: Table) -> None:
            async with table.runtime.lock:
                if not table.open:
                    return
                if table.status == "lobby":
                    await self.lobbies.cancel(table)
                else:
                    action = {"type": "end", "reason": CHANNEL_DELETED}
                    await self.apply(table, action, None)

        await self.clocks.until_saved(close, table, "timer.channel_deleted")
        return table
