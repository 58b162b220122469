"""Seats taken mid-game in the store, on SQLite and PostgreSQL: who sat down and whose seat
they took, saved with the move; the game counted with crewmates, its win for who was seated
at the end."""

from __future__ import annotations

from typing import Any

from bot.store.store import Store
from engine import Game
from tests.engine.helpers import table as position

from .helpers import start

ANN, BOB, EVE = 1, 2, 5
ALL_SUITS = ["2C", "2H", "2D", "2S"]


async def commit(
    store: Store, game_id: int, version: int, game: Game, action: dict[str, Any], **seat: Any
) -> int:
    """`action` applied and stored as the bot would, with the seat it changed (`seat`)."""
    events = game.apply(action)
    return await store.commit_action(
        game_id,
        version,
        state=game.save(),
        actor=seat.pop("actor", action.get("player")),
        action=action,
        events=[e.to_dict() for e in events],
        outcome=game.outcome.value if game.is_over else None,
        now=1_100.0 + version,
        **seat,
    )


async def test_a_drop_in_and_a_crewmate_for_a_leaver_count_with_crewmates(store: Store):
    record, _ = await start(store, [ANN, -1, BOB], channel=1)
    game = position(
        players=(ANN, -1, BOB), hands=[ALL_SUITS, [], []], rocket=[("red", 3), ("yellow", 1)]
    ).arrange(damage=2)
    game.rng = position(dice=[6, 6]).rng
    took = {"type": "take_seat", "player": EVE, "seat_of": -1}
    version = await commit(store, record.id, 0, game, took, removed_player=-1, seated=(EVE, "Eve"))
    crewed = {"type": "take_seat", "player": -2, "seat_of": BOB}
    version = await commit(
        store, record.id, version, game, crewed, actor=BOB, removed_player=BOB, seated=(-2, None)
    )
    stored = await store.get_game(record.id)
    assert stored.players == (ANN, EVE, -2) and stored.starting_players == (ANN, -1, BOB)
    assert stored.names[EVE] == "Eve"
    launch = {"type": "launch", "player": ANN, "cards": ALL_SUITS}
    await commit(store, record.id, version, game, launch)
    assert game.outcome is not None and game.outcome.won
    board = await store.leaderboard(1)
    (win,) = board.fastest_wins_with_crewmates
    assert board.fastest_wins == () and win.win.players == 3  # the seats it was dealt with
    assert win.team == (ANN, EVE, -2)  # seated at the end
    for person, won in ((ANN, 1), (EVE, 1), (BOB, 0)):  # Bob left before the end
        profile = await store.profile(1, person)
        (tally,) = profile.tallies
        assert tally.with_crewmates and (tally.games, tally.wins) == (1, won)


async def test_play_again_seats_whoever_took_a_crewmates_seat_in_it(store: Store):
    record, game = await start(store, [ANN, -1, BOB], channel=1)
    took = {"type": "take_seat", "player": EVE, "seat_of": -1}
    version = await commit(store, record.id, 0, game, took, removed_player=-1, seated=(EVE, None))
    await commit(store, record.id, version, game, {"type": "clock_expired"}, actor=None)
    again = await store.play_again(record.id, 1, EVE, now=2_000.0, host_name="Eve")
    assert again.players == (EVE,) and again.invited == (ANN, BOB)
    joined = await store.add_player(again.id, ANN, now=2_001.0)
    assert joined.players == (ANN, EVE)  # Ann in her seat, Eve in the crewmate's she took
