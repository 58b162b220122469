"""Win streaks and firsts in the store, on SQLite and PostgreSQL: kept as each game ends,
each first once, with the game that earned it; all of it still there after a restart."""

from __future__ import annotations

from typing import Any

from bot.store.records import First, Streak
from bot.store.store import Store
from tests.engine.helpers import table as position

from .helpers import commit
from .test_records_store import ALL_SUITS, ANN, BOB, CID, DEE, EVE, STARTED, Games


class Evening(Games):
    """Games played one after the other, each ending before the next begins."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.clock = STARTED

    def next(self) -> float:
        self.clock += 1_000
        return self.clock

    async def won(self, players: list[int], seconds: float = 600.0, **options: Any) -> int:
        return await self.win(players, seconds=seconds, now=self.next(), **options)

    async def lost(self, players: list[int], **options: Any) -> int:
        return await self.lose(players, now=self.next(), **options)

    async def won_after_a_miss(self, players: list[int]) -> int:
        """The first player's launch misses Apophis; the second player's then destroys it."""
        began = self.next()
        game_id, _ = await self.open(players, now=began)
        game = position(
            players=tuple(players),
            hands=[ALL_SUITS, ["3C", "3H", "3D", "3S"]],
            rocket=[("red", 3), ("yellow", 1)],
            damage=2,
            dice=[1, 6, 6],  # accuracy 1 + 1 < 7: missed
        )
        launch = {"type": "launch", "player": players[0], "cards": ALL_SUITS}
        version = await commit(self.store, game_id, 0, game, launch, now=began + 60)
        game.rocket = position(rocket=[("red", 3), ("yellow", 1)]).rocket  # built again
        game.depot -= set(game.rocket)
        launch = {"type": "launch", "player": players[1], "cards": ["3C", "3H", "3D", "3S"]}
        await commit(self.store, game_id, version, game, launch, now=began + 600)
        return game_id


async def firsts_of(store: Store, user_id: int, guild: int = 1) -> tuple[First, ...]:
    return (await store.profile(guild, user_id)).firsts


async def test_each_first_is_earned_once_with_the_game_that_earned_it(store: Store):
    games = Evening(store)
    # A first win, all-human, not fast (600 s of 900), one launch of which missed.
    first = await games.won_after_a_miss([ANN, BOB])
    kept = [(ANN, "win"), (ANN, "people"), (BOB, "win"), (BOB, "people")]
    assert await store.game_firsts(first) == kept
    await games.lost([ANN, BOB])
    # Every launch on target, with a crewmate: only that first is new.
    clean = await games.won([ANN, -1])
    assert await store.game_firsts(clean) == [(ANN, "on_target")]
    hard = await games.won([ANN, CID], seconds=200.0, difficulty="hard", length=480)
    assert await store.game_firsts(hard) == [
        (ANN, "hard"),
        (ANN, "fast"),  # 200 s of 480: under half the countdown
        *((CID, kind) for kind in ("win", "hard", "people", "on_target", "fast")),
    ]
    half = await games.won([DEE], seconds=240.0, length=480)  # half is not under half
    assert await store.game_firsts(half) == [(DEE, kind) for kind in ("win", "people", "on_target")]
    advanced = await games.won([ANN, BOB], rules="advanced")
    assert await store.game_firsts(advanced) == [
        (ANN, "advanced"),
        *((BOB, kind) for kind in ("advanced", "on_target")),
    ]
    # Earned once: winning again the same ways earns nothing more.
    for options in ({"difficulty": "hard", "length": 480}, {"rules": "advanced"}, {}):
        again = await games.won([ANN, BOB, CID], seconds=100.0, **options)
        assert (ANN, "win") not in await store.game_firsts(again)
    assert await firsts_of(store, ANN) == (
        First("win", first),
        First("hard", hard),
        First("people", first),
        First("advanced", advanced),
        First("on_target", clean),
        First("fast", hard),
    )
    # Not a win for whoever left before it; a first of one server only.
    left = await games.win([BOB, EVE], seconds=600.0, left=EVE, now=games.next())
    assert (EVE, "win") not in await store.game_firsts(left)
    assert await firsts_of(store, EVE) == ()
    elsewhere = await games.won([ANN], guild=2)
    assert await firsts_of(store, ANN, guild=2) == tuple(
        First(kind, elsewhere) for kind in ("win", "people", "on_target")
    )


async def test_a_streak_grows_with_each_win_ends_with_a_loss_and_outlives_a_restart(
    database: str,
):
    store = await Store.open(database)
    games = Evening(store)
    for _ in range(2):
        await games.won([ANN, BOB])
    assert (await store.profile(1, ANN)).streak == Streak(2, 2)
    await games.lost([ANN, BOB])
    assert (await store.profile(1, ANN)).streak == Streak(0, 2)
    # A game with a crewmate counts apart, as on the leaderboard; an abandoned one not at all.
    await games.won([ANN, -1])
    ended, game = await games.open([ANN, BOB], now=games.next())
    await commit(store, ended, 0, game, {"type": "end", "reason": "host"}, now=games.clock + 5)
    await games.won([ANN, BOB])
    await games.win([ANN, BOB], seconds=300.0, left=BOB, now=games.next())  # Bob left it
    profile = await store.profile(1, ANN)
    assert (profile.streak, profile.streak_with_crewmates) == (Streak(2, 2), Streak(1, 1))
    assert (await store.profile(1, BOB)).streak == Streak(0, 2)
    await store.close()

    store = await Store.open(database)  # a restart
    try:
        assert await store.profile(1, ANN) == profile
        games.store = store
        await games.won([ANN, BOB])
        assert (await store.profile(1, ANN)).streak == Streak(3, 3)
        assert (await store.profile(1, BOB)).streak == Streak(1, 2)
    finally:
        await store.close()


async def test_a_conversation_counts_its_own_streak_and_the_firsts_earned_there(store: Store):
    games = Evening(store)

    async def played(channel: int, won: bool, **options: Any) -> int:
        games.channel = channel - 1  # (each game opens in the channel after the last)
        if won:
            return await games.won([ANN, BOB], guild=0, **options)
        return await games.lost([ANN, BOB], guild=0)

    here = await played(50, won=True)
    elsewhere = await played(51, won=True, seconds=200.0, difficulty="hard", length=480)
    await played(50, won=False)
    await played(50, won=True)
    conversation = await store.conversation_profile(50, ANN)
    assert (conversation.streak, conversation.streak_with_crewmates) == (Streak(1, 1), Streak())
    assert [first.game_id for first in conversation.firsts] == [here] * 3
    every_dm = await store.profile(0, ANN)  # one's own games in every DM and group DM
    assert every_dm.streak == Streak(1, 2)
    assert every_dm.firsts == (
        First("win", here),
        First("hard", elsewhere),
        *(First(kind, here) for kind in ("people", "on_target")),
        First("fast", elsewhere),  # 200 s of 480
    )
