"""Play again and the autopilot setting in the store, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.store.records import (
    ChannelBusy,
    GameNotFound,
    LobbyFull,
    NotLatest,
    NotSeated,
    WrongStatus,
)
from bot.store.store import Store

from .helpers import commit, start

ANN, BOB, CID, DEE = 11, 12, 13, 14


async def ended(store: Store, players: list[int], channel: int = 5) -> int:
    """A game of `players` (the first hosts) started and ended in `channel`; its id."""
    record, game = await start(store, players, channel=channel, rules="advanced", length=480)
    await commit(store, record.id, 0, game, {"type": "clock_expired"}, now=1_100.0)
    return record.id


async def test_play_again_keeps_the_seats_and_invites_the_other_players(store: Store) -> None:
    old = await ended(store, [ANN, -1, BOB])
    lobby = await store.play_again(old, 5, BOB, now=2_000.0, host_name="Bob")
    assert (lobby.status, lobby.channel_id, lobby.host_id) == ("lobby", 5, BOB)
    assert (lobby.rules, lobby.difficulty, lobby.length_seconds) == ("advanced", "medium", 480)
    assert lobby.players == (-1, BOB) and lobby.invited == (ANN,) and lobby.names == {BOB: "Bob"}
    assert (await store.get_game(lobby.id)).invited == (ANN,)
    # Someone not invited sits after every seat, those kept included; the invited, in theirs.
    for user in (DEE, ANN):
        lobby = await store.add_player(lobby.id, user, now=2_001.0)
    assert lobby.players == (ANN, -1, BOB, DEE)
    with pytest.raises(LobbyFull):  # an invitation keeps a seat's place, not a seat
        await store.add_player(lobby.id, CID, now=2_002.0)
    lobby = await store.remove_player(lobby.id, ANN)
    assert lobby.players == (-1, BOB, DEE) and lobby.invited == (ANN,)  # invited still


async def test_play_again_refuses_what_is_stale(store: Store) -> None:
    old = await ended(store, [ANN, BOB])
    with pytest.raises(NotSeated):
        await store.play_again(old, 5, DEE, now=2_000.0)
    with pytest.raises(GameNotFound):
        await store.play_again(old, 6, ANN, now=2_000.0)  # from another channel
    lobby = await store.play_again(old, 5, ANN, now=2_000.0)
    with pytest.raises(ChannelBusy):
        await store.play_again(old, 5, BOB, now=2_001.0)
    with pytest.raises(WrongStatus):
        await store.play_again(lobby.id, 5, ANN, now=2_001.0)  # an open lobby, not a game
    await store.cancel_lobby(lobby.id, now=2_002.0)
    with pytest.raises(NotLatest):
        await store.play_again(old, 5, BOB, now=2_003.0)
    with pytest.raises(WrongStatus):
        await store.play_again(lobby.id, 5, ANN, now=2_003.0)  # it never started


async def test_the_autopilot_setting(store: Store) -> None:
    assert (await store.get_guild_settings(1)).autopilot_seconds == 0
    assert await store.autopilot_delays() == {}
    await store.update_guild_settings(1, autopilot_seconds=90)
    await store.update_guild_settings(2, turn_pings=False)
    assert await store.autopilot_delays() == {1: 90}
    for seconds in (15, 301, -1):
        with pytest.raises(ValueError, match="0 \\(off\\) or 30 to 300"):
            await store.update_guild_settings(1, autopilot_seconds=seconds)
    assert (await store.get_guild_settings(1)).autopilot_seconds == 90
    await store.update_guild_settings(1, autopilot_seconds=0)
    assert await store.autopilot_delays() == {}
