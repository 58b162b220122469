"""Who is new, read from the store on SQLite and PostgreSQL: a server where no team has won,
and the people who have won a game, or finished one, on any server."""

from __future__ import annotations

from bot.store.store import Store

from .test_records_store import ANN, BOB, CID, DEE, Games


async def test_a_server_with_no_win_and_people_who_never_won_or_played(store: Store):
    new = await store.newness(1, [ANN, BOB])
    assert (new.server_won, new.winners, new.played) == (False, frozenset(), frozenset())
    games = Games(store)
    await games.lose([ANN, BOB])  # a loss is played, not won
    new = await store.newness(1, [ANN, BOB, CID])
    assert (new.server_won, new.winners, new.played) == (False, frozenset(), {ANN, BOB})

    await games.win([CID, DEE], guild=2)  # on another server, with a crewmate's seat too
    await games.win([BOB, -1])
    here, elsewhere = await store.newness(1, [ANN, BOB, CID]), await store.newness(3, [CID])
    assert (here.server_won, here.winners, here.played) == (True, {BOB, CID}, {ANN, BOB, CID})
    assert (elsewhere.server_won, elsewhere.winners) == (False, {CID})  # wins count anywhere
    # A conversation (no server) has no first games of its own.
    assert (await store.newness(0, [DEE])).server_won is None
    assert (await store.newness(1, [])).winners == frozenset()
