"""Who is new to the game, as transactions (bot.store.transactions) for both backends: a
server that has won no game yet, and which people have won a game, or finished one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.records import WINS
from bot.store.transactions import Transaction, one, rows

#: Where a person's totals are kept, one row a server: all-human games', and games with
#: crewmates' (each read through its index by user, migration 0018).
_TOTALS = ("player_totals", "crew_totals")


@dataclass(frozen=True, slots=True)
class Newness:
    """How new a server and some of its people are to the game."""

    #: Whether a team has won a game on the server (None: no server, a conversation).
    server_won: bool | None
    #: Those of the people who have won a game, anywhere.
    winners: frozenset[int]
    #: Those of the people who have finished a game (one with a result), anywhere.
    played: frozenset[int]


def newness(guild_id: int, people: Sequence[int]) -> Transaction[Newness]:
    """How new the server (0: none, a conversation) and `people` are (three queries)."""
    won = (yield from server_has_won(guild_id)) if guild_id else None
    return Newness(won, (yield from winners(people)), (yield from players(people)))


def server_has_won(guild_id: int) -> Transaction[bool]:
    """Whether a team has won a game on the server (through the results' index by server)."""
    query = f"SELECT 1 FROM results WHERE guild_id = ? AND outcome IN {WINS} LIMIT 1"
    return (yield one(query, guild_id)) is not None


def winners(people: Sequence[int]) -> Transaction[frozenset[int]]:
    """Those of `people` who have won a game, on any server or in a conversation."""
    return (yield from _people(people, "wins > 0"))


def players(people: Sequence[int]) -> Transaction[frozenset[int]]:
    """Those of `people` who have finished a game (one with a result), anywhere."""
    return (yield from _people(people, "games > 0"))


def _people(people: Sequence[int], condition: str) -> Transaction[frozenset[int]]:
    if not people:
        return frozenset()
    marks = ", ".join("?" for _ in people)
    query = " UNION ".join(
        f"SELECT user_id FROM {totals} WHERE user_id IN ({marks}) AND {condition}"
        for totals in _TOTALS
    )
    return frozenset(user for (user,) in (yield rows(query, *people, *people)))
