"""Games, seats, the action log, settings and statistics through the Store."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

import migrations
from bot.lobby_settings import LobbySettings
from bot.store.records import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    GuildSettings,
    LobbyFull,
    NotLatest,
    NotSeated,
    SeatsChanged,
    Shards,
    StaleVersion,
    StoreBusy,
    Tally,
    WrongStatus,
    shard_of,
)
from bot.store.store import Store
from bot.table import Table
from engine import Game, Phase
from engine.crew import decide

from .helpers import (
    RAW_ERRORS,
    assert_consistent,
    commit,
    holding_the_game,
    next_action,
    raw_execute,
    start,
)


async def play(store: Store, game_id: int, game: Game, rng: random.Random, count: int) -> int:
    """Play up to `count` actions from version 0 (fewer if the game ends); the version."""
    version = 0
    while version < count and not game.is_over:
        action = next_action(game, rng, version)
        version = await commit(store, game_id, version, game, action, now=1_000.0 + version)
    return version


async def test_open_creates_the_folder_and_sets_up_the_connection(
    db_path: Path, sqlite_store: Store
) -> None:
    store = sqlite_store
    assert db_path.parent.is_dir()
    pragmas = {}
    for name in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout", "user_version"):
        async with store._db._conn.execute(f"PRAGMA {name}") as cursor:
            (pragmas[name],) = await cursor.fetchone()
    assert pragmas == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "synchronous": 1,  # NORMAL
        "busy_timeout": 5000,
        "user_version": len(migrations.load()),
    }


async def test_game_round_trips_through_the_store(database: str, store: Store) -> None:
    record, game = await start(store, [11, 22, 33], channel=5, guild=3, seed=99, rules="advanced")
    version = await play(store, record.id, game, random.Random(4), 40)
    await store.set_board_message(record.id, 777)
    await store.close()

    reopened = await Store.open(database)
    try:
        stored = await reopened.get_game(record.id)
        assert stored.state == game.save()
        assert (stored.version, stored.status, stored.board_message_id) == (version, "active", 777)
        assert (stored.guild_id, stored.channel_id, stored.host_id) == (3, 5, 11)
        assert (stored.rules, stored.difficulty, stored.length_seconds) == (
            "advanced",
            "medium",
            900,
        )
        assert (stored.seed, stored.start_player) == (99, record.start_player)
        assert stored.players == stored.starting_players == (11, 22, 33)
        assert stored.clock_deadline == 1_900.0 and stored.clock_remaining is None
        assert stored.started_at == 1_000.0 and stored.ended_at is None
        assert Game.restore(stored.state).save() == game.save()
        assert await reopened.load_active_games() == [stored]
        assert await reopened.active_game_in_channel(5) == stored
        assert_consistent(stored, await reopened.game_log(record.id))
    finally:
        await reopened.close()


async def test_lobby_seats_in_join_order(store: Store) -> None:
    lobby = await store.create_lobby(1, 10, 100, LobbySettings("basic", "easy", 10))
    assert (lobby.status, lobby.state, lobby.version, lobby.players) == ("lobby", None, 0, (100,))
    for user in (200, 300, 400):
        lobby = await store.add_player(lobby.id, user)
    with pytest.raises(LobbyFull):
        await store.add_player(lobby.id, 500)
    with pytest.raises(AlreadySeated):
        await store.add_player(lobby.id, 300)
    lobby = await store.remove_player(lobby.id, 200)
    with pytest.raises(NotSeated):
        await store.remove_player(lobby.id, 200)
    lobby = await store.add_player(lobby.id, 500)
    assert lobby.players == lobby.starting_players == (100, 300, 400, 500)
    with pytest.raises(GameNotFound):
        await store.add_player(12345, 1)


async def test_seats_keep_their_players_names(store: Store) -> None:
    lobby = await store.create_lobby(
        1, 10, 100, LobbySettings("basic", "easy", 10), host_name="Ada"
    )
    await store.add_player(lobby.id, 200, name="Brahim")
    await store.add_player(lobby.id, -1)  # a crewmate has no name
    await store.add_player(lobby.id, 300)  # a name not given (kept as unknown)
    (found,) = [g for g in await store.load_active_games() if g.id == lobby.id]
    assert found.names == (await store.get_game(lobby.id)).names == {100: "Ada", 200: "Brahim"}
    table = Table.from_record(found)
    assert [table.name_of(p) for p in found.players] == ["Ada", "Brahim", "Robot 1", "#4"]


async def test_start_game_needs_the_lobby_as_stored(store: Store) -> None:
    lobby = await store.create_lobby(1, 10, 100, LobbySettings("basic", "easy", 10))
    await store.add_player(lobby.id, 200)
    stale = Game.new([100], seed=1)  # built before player 200 joined
    with pytest.raises(SeatsChanged):
        await store.start_game(lobby.id, seed=1, start_player=100, state=stale.save(), deadline=1)
    game = Game.new([100, 200], seed=1)
    await store.start_game(lobby.id, seed=1, start_player=100, state=game.save(), deadline=1)
    with pytest.raises(WrongStatus):
        await store.start_game(lobby.id, seed=1, start_player=100, state=game.save(), deadline=1)
    with pytest.raises(WrongStatus):
        await store.add_player(lobby.id, 300)


async def test_one_open_game_per_channel(database: str, store: Store) -> None:
    lobby = await store.create_lobby(1, 10, 100, LobbySettings("basic", "medium", 10))
    with pytest.raises(ChannelBusy):
        await store.create_lobby(1, 10, 200, LobbySettings("basic", "medium", 10))
    other = await store.create_lobby(1, 11, 200, LobbySettings("basic", "medium", 10))
    assert other.id != lobby.id

    # The database itself refuses a second open game, whatever the code does.
    with pytest.raises(RAW_ERRORS, match=r"(?i)unique"):
        await raw_execute(
            database,
            "INSERT INTO games (guild_id, channel_id, host_id, rules, difficulty, length_seconds, "
            "created_at, updated_at) VALUES (1, 10, 300, 'basic', 'easy', 60, 0, 0)",
        )

    await store.cancel_lobby(lobby.id)
    assert await store.active_game_in_channel(10) is None
    again = await store.create_lobby(1, 10, 300, LobbySettings("basic", "medium", 10))
    assert (await store.active_game_in_channel(10)).id == again.id


async def test_stale_version_is_refused_and_changes_nothing(store: Store) -> None:
    record, game = await start(store, [1, 2], channel=1)
    rival = Game.restore(game.save())
    rng = random.Random(1)
    version = await commit(store, record.id, 0, game, next_action(game, rng, 0), now=1_001)
    assert version == 1

    with pytest.raises(StaleVersion):
        await commit(store, record.id, 0, rival, next_action(rival, rng, 0), now=1_002)
    stored = await store.get_game(record.id)
    assert (stored.version, stored.state) == (1, game.save())
    assert len(await store.game_log(record.id)) == 1


async def test_racing_writers_exactly_one_wins(store: Store) -> None:
    record, game = await start(store, [1, 2], channel=1)
    writers = [Game.restore(game.save()) for _ in range(10)]
    rng = random.Random(2)
    results = await asyncio.gather(
        *(commit(store, record.id, 0, w, next_action(w, rng, 0), now=1_001) for w in writers),
        return_exceptions=True,
    )
    assert sum(result == 1 for result in results) == 1
    assert sum(isinstance(result, StaleVersion) for result in results) == 9
    assert_consistent(await store.get_game(record.id), await store.game_log(record.id))


async def test_a_refused_action_commits_nothing(store: Store) -> None:
    record, game = await start(store, [1, 2], channel=1)
    before = game.save()
    with pytest.raises(NotSeated):
        # The engine accepted it, but the store cannot free a seat nobody holds.
        await store.commit_action(
            record.id,
            0,
            state=game.save(),
            actor=None,
            action={"type": "remove_player", "player": 3},
            events=[],
            removed_player=3,
        )
    stored = await store.get_game(record.id)
    assert (stored.version, stored.state) == (0, before)
    assert await store.game_log(record.id) == []


async def test_actions_of_a_finished_game_are_refused(store: Store) -> None:
    record, game = await start(store, [1], channel=1)
    late = Game.restore(game.save())
    version = await commit(store, record.id, 0, game, {"type": "end", "reason": "host"}, now=1_010)
    with pytest.raises(WrongStatus):
        await commit(store, record.id, version, late, {"type": "skip_turn"}, now=1_020)
    assert (await store.get_game(record.id)).version == version


async def test_the_action_log_is_append_only(database: str, store: Store) -> None:
    record, game = await start(store, [1, 2], channel=1)
    await play(store, record.id, game, random.Random(3), 3)
    with pytest.raises(RAW_ERRORS, match="append-only"):
        await raw_execute(database, "UPDATE actions SET actor = 5")
    with pytest.raises(RAW_ERRORS, match="append-only"):
        await raw_execute(database, "DELETE FROM actions")
    with pytest.raises(RAW_ERRORS, match="does not match"):
        await raw_execute(
            database,
            "INSERT INTO actions (game_id, version, at, actor, action, events) "
            f"VALUES ({record.id}, 9, 0, NULL, '{{}}', '[]')",
        )
    assert len(await store.game_log(record.id)) == 3


async def test_players_leaving_during_play(store: Store) -> None:
    record, game = await start(store, [1, 2, 3], channel=1)
    version = await commit(store, record.id, 0, game, {"type": "remove_player", "player": 2}, now=1)
    stored = await store.get_game(record.id)
    assert (stored.players, stored.starting_players) == ((1, 3), (1, 2, 3))
    assert stored.state["players"] == [1, 3]
    for player in (1, 3):
        action = {"type": "remove_player", "player": player}
        version = await commit(store, record.id, version, game, action, now=2)
    stored = await store.get_game(record.id)
    assert (stored.status, stored.outcome, stored.players) == ("abandoned", "abandoned", ())
    assert_consistent(stored, await store.game_log(record.id))
    assert (await store.stats(1)).tallies == (Tally("basic", "medium", 1, 0, 0, 1),)


def crew_action(game: Game, rng: random.Random, version: int) -> dict:
    """The crew policy's move for the player to move (the playout's in a reshuffle)."""
    if game.phase is Phase.RESHUFFLE:
        return next_action(game, rng, version, limit=1_100)
    decision = decide(game.view_for(game.active_player))
    assert decision is not None
    return decision.action


async def test_results_and_statistics(store: Store) -> None:
    expected: dict[tuple[str, str], list[int]] = {}
    wins = []
    for index in range(18):
        rules = ("basic", "advanced")[index % 2]
        difficulty = ("easy", "hard")[index // 9]
        players = list(range(1, 2 + index % 4))
        record, game = await start(
            store, players, channel=index, guild=8, seed=index, rules=rules, difficulty=difficulty
        )
        rng, version = random.Random(index), 0
        while not game.is_over:
            now = 1_000 + version / 2
            if index == 17 and version == 10:
                action = {"type": "end", "reason": "host"}
            elif index % 3 == 0:  # played at random, lost to a clock run out after 60 moves
                action = next_action(game, rng, version, limit=60)
            else:  # played by the crew policy: won within a few hundred moves
                action = crew_action(game, rng, version)
            version = await commit(store, record.id, version, game, action, now=now)
        stored = await store.get_game(record.id)
        assert stored.status == ("abandoned" if index == 17 else "finished")
        assert stored.ended_at == now and stored.clock_deadline is None
        assert stored.clock_remaining == 1_900 - now
        counts = expected.setdefault((rules, difficulty), [0, 0, 0, 0])
        counts[0] += 1
        counts[{"destroyed": 1, "deflected": 1, "lost": 2, "abandoned": 3}[game.outcome.value]] += 1
        if game.outcome.won:
            wins.append((now - 1_000, record.id))
    # An open game is no result.
    await store.create_lobby(8, 99, 1, LobbySettings("basic", "easy", 1))

    stats = await store.stats(8)
    assert len(wins) > 5
    assert stats.tallies == tuple(
        Tally(rules, difficulty, *counts)
        for (rules, difficulty), counts in sorted(expected.items())
    )
    assert [(w.duration_seconds, w.game_id) for w in stats.fastest_wins] == sorted(wins)[:5]
    assert (await store.stats(9)).tallies == ()


async def test_guild_settings(database: str, store: Store) -> None:
    assert await store.get_guild_settings(5) == GuildSettings(5)
    changed = await store.update_guild_settings(5, language="fr", moderator_role_id=42)
    assert changed == GuildSettings(5, 42, "fr", "medium", "basic")
    changed = await store.update_guild_settings(5, default_difficulty="hard")
    assert await store.get_guild_settings(5) == GuildSettings(5, 42, "fr", "hard", "basic")
    with pytest.raises(ValueError):
        await store.update_guild_settings(5, default_difficulty="impossible")
    with pytest.raises(TypeError):
        await store.update_guild_settings(5, colour="blue")
    assert await store.get_guild_settings(5) == changed
    quiet = await store.update_guild_settings(5, turn_pings=False)
    assert quiet == GuildSettings(5, 42, "fr", "hard", "basic", turn_pings=False)
    assert await store.get_guild_settings(5) == quiet

    # The schema's defaults are the same as the code's.
    await raw_execute(database, "INSERT INTO guild_settings (guild_id) VALUES (6)")
    assert await store.get_guild_settings(6) == GuildSettings(6)


async def test_servers_can_turn_board_pictures_off(store: Store) -> None:
    assert (await store.get_guild_settings(5)).pictures is True
    await store.update_guild_settings(5, pictures=False)
    await store.update_guild_settings(6, default_rules="advanced")
    assert (await store.get_guild_settings(5)).pictures is False
    assert await store.guilds_without_pictures() == {5}
    await store.update_guild_settings(5, pictures=True)
    assert await store.guilds_without_pictures() == set()


async def test_dm_channels(store: Store) -> None:
    assert await store.get_dm_channel(7) is None
    await store.set_dm_channel(7, 70)
    await store.set_dm_channel(7, 71)
    assert await store.get_dm_channel(7) == 71


async def test_each_players_hand_dm_is_remembered_per_game(store: Store) -> None:
    lobby = await store.create_lobby(1, 10, 7, LobbySettings("basic", "easy", 10), now=1.0)
    assert await store.get_hand_dm(lobby.id, 7) is None
    await store.set_hand_dm(lobby.id, 7, 700)
    await store.set_hand_dm(lobby.id, 7, 701)
    await store.set_hand_dm(lobby.id, 8, 800)
    assert (await store.get_hand_dm(lobby.id, 7), await store.get_hand_dm(lobby.id, 8)) == (
        701,
        800,
    )


async def test_unknown_games(store: Store) -> None:
    with pytest.raises(GameNotFound):
        await store.get_game(404)
    with pytest.raises(GameNotFound):
        await store.set_board_message(404, 1)
    with pytest.raises(GameNotFound):
        await store.commit_action(404, 0, state={}, actor=None, action={}, events=[])


async def test_concurrent_games_never_mix_transactions(store: Store) -> None:
    started = [await start(store, [i, i + 100], channel=i, seed=i) for i in range(8)]
    await asyncio.gather(
        *(play(store, record.id, game, random.Random(record.id), 60) for record, game in started)
    )
    for record, game in started:
        stored = await store.get_game(record.id)
        assert stored.state == game.save()
        assert_consistent(stored, await store.game_log(record.id))


async def test_load_active_games_in_one_pass(sqlite_store: Store) -> None:
    store = sqlite_store
    open_ids = []
    for channel in range(30):
        if channel % 3 == 0:
            lobby = await store.create_lobby(1, channel, channel, LobbySettings("basic", "easy", 1))
            open_ids.append(lobby.id)
            continue
        record, game = await start(store, [channel, 1000 + channel], channel=channel)
        if channel % 3 == 1:
            await commit(store, record.id, 0, game, {"type": "end", "reason": "test"}, now=2)
        else:
            open_ids.append(record.id)

    statements: list[str] = []
    await store._db._conn.set_trace_callback(statements.append)
    loaded = await store.load_active_games()
    await store._db._conn.set_trace_callback(None)

    assert [record.id for record in loaded] == open_ids
    assert loaded == [await store.get_game(game_id) for game_id in open_ids]
    assert sum(s.lstrip().upper().startswith("SELECT") for s in statements) == 2


async def test_a_process_of_some_shards_reads_the_games_shard_of_puts_there(
    database: str, store: Store
) -> None:
    # The shard the SQL reads by is the one shard_of (Discord's routing) gives, for ids as
    # large as Discord's.
    guilds = [random.Random(guild).getrandbits(63) for guild in range(40)]
    for channel, guild in enumerate(guilds):
        await store.create_lobby(guild, channel, 10, LobbySettings("basic", "easy", 1))
    some = await Store.open(database, Shards((0, 2), 3))
    try:
        loaded = await some.load_active_games()
    finally:
        await some.close()
    ours = {guild for guild in guilds if shard_of(guild, 3) in (0, 2)}
    assert {record.guild_id for record in loaded} == ours
    assert 0 < len(ours) < len(guilds)


async def test_meta_values(database: str, store: Store) -> None:
    assert await store.get_meta("commands_hash") is None
    await store.set_meta("commands_hash", "abc")
    await store.set_meta("commands_hash", "def")
    await store.touch_alive(now=123.5)
    await store.close()
    reopened = await Store.open(database)
    try:
        assert await reopened.get_meta("commands_hash") == "def"
        assert await reopened.get_meta("last_alive") == 123.5
    finally:
        await reopened.close()


async def test_writes_the_database_is_too_busy_for_fail_cleanly(
    database: str, store: Store
) -> None:
    record = await store.create_lobby(1, 2, 10, LobbySettings("basic", "medium", 10))
    async with holding_the_game(database, record.id):  # another process's connection
        results = await asyncio.gather(
            *(store.add_player(record.id, user) for user in (11, 12, 13)),
            store.get_game(record.id),
            return_exceptions=True,
        )
    assert [type(result) for result in results[:3]] == [StoreBusy] * 3
    assert results[3].players == (10,)  # reading does not need the write lock
    assert (await store.get_game(record.id)).players == (10,)  # nothing was written
    assert (await store.add_player(record.id, 11)).players == (10, 11)


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
    """On after 90 s for a server that never chose; a choice, "off" (0) too, is kept."""
    assert (await store.get_guild_settings(1)).autopilot_seconds == 90
    assert await store.autopilot_delays() == {}
    await store.update_guild_settings(1, autopilot_seconds=30)
    await store.update_guild_settings(2, turn_pings=False)
    assert await store.autopilot_delays() == {1: 30, 2: 90}
    for seconds in (15, 301, -1):
        with pytest.raises(ValueError, match="0 \\(off\\) or 30 to 300"):
            await store.update_guild_settings(1, autopilot_seconds=seconds)
    assert (await store.get_guild_settings(1)).autopilot_seconds == 30
    await store.update_guild_settings(1, autopilot_seconds=0)
    await store.update_guild_settings(1, pictures=False)
    assert await store.autopilot_delays() == {1: 0, 2: 90}


async def test_each_players_latest_signal_is_kept_for_the_games_in_play(store: Store) -> None:
    """Table talk (bot.store.talk): a player's signal replaces their last in one statement;
    the games in play read theirs back, oldest first; an ended game's are not read."""
    record, _ = await start(store, [1, 2], channel=1)
    ended, other = await start(store, [3], channel=2)
    await store.set_signal(record.id, 1, "build.red", 2, now=1.0)
    await store.set_signal(record.id, 2, "hold.blue.2", 3, now=2.0)
    await store.set_signal(record.id, 1, "dont_scrap", 4, now=3.0)  # replaces build.red
    await store.set_signal(ended.id, 3, "launch_next", 2, now=1.5)
    await commit(store, ended.id, 0, other, {"type": "end", "reason": "host"}, now=4)
    assert await store.open_signals() == [
        (record.id, 2, "hold.blue.2", 3),
        (record.id, 1, "dont_scrap", 4),
    ]
