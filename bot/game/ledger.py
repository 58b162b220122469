"""What the doors may read of the games played, and where: a server's or a conversation's
history, a game's replay, profiles, leaderboards and statistics (read from the store;
nothing here changes a game).

A game is kept with its server, or, played in a DM or a group DM, with no server (0) and
its channel. Read somewhere, the records cover that place: in a server, its games; in a DM
or group DM, that conversation's games, and a person's own games in every DM and group DM
(`covers`). A game may be seen where it was played and by whoever played it (`visible`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.store.records import OPEN_STATUSES, GameNotFound
from bot.table import Table
from engine import GameEvent, events

if TYPE_CHECKING:
    from bot.game.access import Caller
    from bot.store.records import GameRecord, Leaderboard, LoggedAction, Profile, Stats
    from bot.store.store import Store

#: What records read somewhere cover: a server's games, the games of one DM or group DM
#: (a conversation), or a person's own games in every DM and group DM (direct).
SERVER, CONVERSATION, DIRECT = "server", "conversation", "direct"


def place_of(caller: Caller) -> str:
    """Whose games are read where the caller is: their server's (SERVER), or, in a DM or a
    group DM, that conversation's (CONVERSATION)."""
    return SERVER if caller.guild_id else CONVERSATION


def covers(caller: Caller, user_id: int) -> str:
    """What the profile of `user_id` read by the caller covers: in a server, its games; in
    a DM or group DM, the caller's own games in every DM and group DM (DIRECT), or someone
    else's in this conversation alone (what the caller could see)."""
    place = place_of(caller)
    return DIRECT if place == CONVERSATION and user_id == caller.user_id else place


def visible(record: GameRecord, caller: Caller) -> bool:
    """Whether the caller may see the game: one of their server's, one played in the DM
    or group DM they are in, or one they took a seat in, wherever it was played."""
    if caller.user_id in record.starting_players or caller.user_id in record.players:
        return True
    if caller.guild_id:
        return record.guild_id == caller.guild_id
    return record.guild_id == 0 and record.channel_id == caller.channel_id


class Ledger:
    """The record of games played, as the doors read it (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def recent_games(self, caller: Caller, count: int) -> list[GameRecord]:
        """The last `count` ended games where the caller is (`place_of`), the latest first."""
        if place_of(caller) == SERVER:
            return await self._store.recent_games(caller.guild_id, count)
        return await self._store.recent_games_in_conversation(caller.channel_id, count)

    async def seen_game(self, number: int, caller: Caller) -> GameRecord:
        """Game `number`, if the caller may see it (`visible`); else UserError, the same
        whether there is no such game or it is one they cannot see."""
        try:
            record = await self._store.get_game(number)
        except GameNotFound:
            record = None
        if record is None or not visible(record, caller):
            raise UserError("replay.error.unseen", id=number)
        return record

    async def game(self, number: int) -> tuple[GameRecord, list[LoggedAction]]:
        """Game `number` and its log; UserError if there is no such game."""
        try:
            record = await self._store.get_game(number)
        except GameNotFound:
            raise UserError("replay.error.unseen", id=number) from None
        return record, await self._store.game_log(number)

    async def ended_table(self, number: int) -> Table | None:
        """Game `number` as its final board draws it (its table, logged events and the
        firsts earned with it), if it has ended; None for a game still open or unknown."""
        try:
            record, log = await self.game(number)
        except UserError:
            return None
        if record.status in OPEN_STATUSES:
            return None
        table = Table.from_record(record)
        table.history = logged_events(log)
        table.firsts = await self._store.game_firsts(number)
        return table

    async def profile(self, caller: Caller, user_id: int) -> Profile:
        """The record of `user_id` read by the caller, over what `covers` says."""
        covered = covers(caller, user_id)
        if covered == CONVERSATION:
            return await self._store.conversation_profile(caller.channel_id, user_id)
        return await self._store.profile(caller.guild_id, user_id)  # guild 0: every DM's

    async def leaderboard(self, guild_id: int) -> Leaderboard:
        return await self._store.leaderboard(guild_id)

    async def stats(self, guild_id: int) -> Stats:
        return await self._store.stats(guild_id)


def logged_events(log: Iterable[LoggedAction]) -> list[GameEvent]:
    """Every event of a game's action log, oldest first, read back as the engine's."""
    return [events.from_dict(event) for action in log for event in action.events]
