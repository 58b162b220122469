"""A game in play: each accepted action committed with its row of the append-only action
log (and, when it ends the game, its result), the log read back, the board message
remembered, as transactions (bot.store.transactions) for both backends."""

from __future__ import annotations

from typing import Any

import orjson

from bot.store.games import load_game, refuse
from bot.store.records import GameNotFound, GameRecord, LoggedAction, NotSeated
from bot.store.talk import signals_of
from bot.store.tallies import record_result
from bot.store.transactions import Transaction, count, rows
from engine import Outcome


def commit_action(
    game_id: int,
    expected_version: int,
    state: str,
    actor: int | None,
    action: str,
    events: str,
    outcome: str | None,
    removed_player: int | None,
    host_id: int | None,
    now: float,
    autopiloted: int | None = None,
    seated: tuple[int, str | None] | None = None,
) -> Transaction[int]:
    version = expected_version + 1
    if outcome is None:
        query = (
            "UPDATE games SET state = ?, version = ?, updated_at = ? "
            "WHERE id = ? AND status = 'active' AND version = ?"
        )
        values: tuple[Any, ...] = (state, version, now, game_id, expected_version)
    else:
        # The clock stops for good: what was left is kept as the frozen remainder.
        query = (
            "UPDATE games SET state = ?, version = ?, updated_at = ?, status = ?, "
            "outcome = ?, ended_at = ?, clock_deadline = NULL, "
            "clock_remaining = {greatest}(COALESCE(clock_deadline - ?, clock_remaining), 0) "
            "WHERE id = ? AND status = 'active' AND version = ?"
        )
        status = "abandoned" if outcome == Outcome.ABANDONED else "finished"
        values = (state, version, now, status, outcome, now, now, game_id, expected_version)
    if (yield count(query, *values)) == 0:
        raise (yield from refuse(game_id, "active", expected_version))
    if removed_player is not None:
        query = (
            "UPDATE players SET left_at = ? WHERE game_id = ? AND user_id = ? AND left_at IS NULL"
        )
        if (yield count(query, now, game_id, removed_player)) == 0:
            raise NotSeated(f"Player {removed_player} has no seat in game {game_id}.")
    if seated is not None:
        yield from _sit_down(game_id, *seated, now)
    if host_id is not None:
        yield count("UPDATE games SET host_id = ? WHERE id = ?", host_id, game_id)
    if autopiloted is not None:  # the autopilot played this person's seat
        query = "UPDATE players SET autopiloted = 1 WHERE game_id = ? AND user_id = ?"
        yield count(query, game_id, autopiloted)
    query = (
        "INSERT INTO actions (game_id, version, at, actor, action, events) "
        "VALUES (?, ?, ?, ?, ?, ?)"
    )
    yield count(query, game_id, version, now, actor, action, events)
    if outcome is not None:
        yield from record_result(game_id)
    return version


def _sit_down(game_id: int, user_id: int, name: str | None, now: float) -> Transaction[None]:
    """`user_id` sat down mid-game: in the seat they had, if they left one, or in a seat
    row after the others' (not dealt in: a replay deals to the seats that were)."""
    query = (
        "UPDATE players SET left_at = NULL, name = COALESCE(?, name) "
        "WHERE game_id = ? AND user_id = ? AND left_at IS NOT NULL"
    )
    if (yield count(query, name, game_id, user_id)) == 0:
        query = (
            "INSERT INTO players (game_id, seat, user_id, joined_at, name, dealt) "
            "SELECT ?, COALESCE(MAX(seat), -1) + 1, ?, ?, ?, 0 FROM players WHERE game_id = ?"
        )
        yield count(query, game_id, user_id, now, name, game_id)


def game_log(game_id: int, since: int = 0) -> Transaction[list[LoggedAction]]:
    """A game's logged actions after version `since` (all by default), in version order."""
    query = (
        "SELECT version, at, actor, action, events FROM actions WHERE game_id = ? "
        "AND version > ? ORDER BY version"
    )
    return [
        LoggedAction(version, at, actor, orjson.loads(action), orjson.loads(events))
        for version, at, actor, action, events in (yield rows(query, game_id, since))
    ]


def game_as_told(
    game_id: int, since: int
) -> Transaction[tuple[GameRecord, list[LoggedAction], list[tuple[int, str, int]]]]:
    """A game, its actions logged after version `since`, and its standing signals (player,
    code, last turn), in one read."""
    record = yield from load_game(game_id)
    logged = yield from game_log(game_id, since)
    return record, logged, (yield from signals_of(game_id))


def set_board_message(game_id: int, message_id: int | None) -> Transaction[None]:
    query = "UPDATE games SET board_message_id = ? WHERE id = ?"
    if (yield count(query, message_id, game_id)) == 0:
        raise GameNotFound(f"There is no game {game_id}.")
