"""What the doors may read of the games played: a server's history, a game's replay, profiles,
leaderboards and statistics (read from the store; nothing here changes a game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.store.records import OPEN_STATUSES, GameNotFound
from bot.table import Table

if TYPE_CHECKING:
    from bot.store.records import GameRecord, Leaderboard, LoggedAction, Profile, Stats
    from bot.store.store import Store


class Ledger:
    """The record of games played, as the doors read it (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def recent_games(self, guild_id: int, count: int) -> list[GameRecord]:
        return await self._store.recent_games(guild_id, count)

    async def game(self, number: int) -> tuple[GameRecord, list[LoggedAction]]:
        """Game `number` and its log; UserError if there is no such game."""
        try:
            record = await self._store.get_game(number)
        except GameNotFound:
            raise UserError("replay.error.unknown", id=number) from None
        return record, await self._store.game_log(number)

    async def ended_table(self, number: int) -> Table | None:
        """Game `number` as its final board draws it (its table and logged events), if it
        has ended; None for a game still open or unknown."""
        try:
            record, log = await self.game(number)
        except UserError:
            return None
        if record.status in OPEN_STATUSES:
            return None
        table = Table.from_record(record)
        table.history = [event for action in log for event in action.events]
        return table

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        return await self._store.profile(guild_id, user_id)

    async def leaderboard(self, guild_id: int) -> Leaderboard:
        return await self._store.leaderboard(guild_id)

    async def stats(self, guild_id: int) -> Stats:
        return await self._store.stats(guild_id)
