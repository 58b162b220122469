"""A lobby's rules, difficulty and countdown, changed by its host before the start through
the game layer alone: what each choice sets, who is refused, and what a restart keeps."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.game.access import OUTSIDER
from bot.game.audience import Audience
from bot.game.changes import Stream
from bot.game.clicks import command_of, read_click
from bot.game.commands import Configure, Join, Open, Start
from bot.game.service import GameService
from bot.lobby_settings import OPTIONS
from bot.store.transactions import Transaction, one
from bot.table import Table
from tests.game.conftest import CHANNEL, caller

ANN, BOB = 1, 2


def settings(table) -> tuple[str, str, int]:
    return table.rules, table.difficulty, table.length_seconds


def column(game_id: int, name: str) -> Transaction[object]:
    """What the games table's column `name` keeps for a game."""
    (value,) = yield one(f"SELECT {name} FROM games WHERE id = ?", game_id)
    return value


async def refused(service, who, command) -> str:
    with pytest.raises(UserError) as info:
        await service.run(who, command)
    return info.value.key


async def test_a_difficulty_sets_its_countdown_and_a_countdown_names_its_difficulty(service):
    table = (await service.run(caller(ANN), Open())).table
    assert settings(table) == ("basic", "medium", 600)
    await service.run(caller(ANN), Configure(difficulty="hard"))
    assert settings(table) == ("basic", "hard", 480)
    await service.run(caller(ANN), Configure(minutes=12))  # easy's countdown
    assert settings(table) == ("basic", "easy", 720)
    await service.run(caller(ANN), Configure(minutes=9))  # no difficulty's
    assert settings(table) == ("basic", "custom", 540)
    await service.run(caller(ANN), Configure(difficulty="beginner", minutes=15))
    assert settings(table) == ("basic", "beginner", 900)


async def test_advanced_rules_chosen_alone_get_ten_minutes_as_when_opening(service):
    table = (await service.run(caller(ANN), Open(difficulty="hard"))).table
    await service.run(caller(ANN), Configure(rules="advanced"))
    assert settings(table) == ("advanced", "medium", 600)
    await service.run(caller(ANN), Configure(rules="advanced", difficulty="easy"))
    assert settings(table) == ("advanced", "easy", 720)
    await service.run(caller(ANN), Configure(rules="advanced", minutes=8))
    assert settings(table) == ("advanced", "hard", 480)
    await service.run(caller(ANN), Configure(rules="basic"))  # the countdown stays
    assert settings(table) == ("basic", "hard", 480)


async def test_a_change_is_published_as_a_lobby_change_and_counts_as_the_lobby_touched(service):
    table = (await service.run(caller(ANN), Open())).table
    service.recorder.changes.clear()
    later = table.touched + 100
    service.now = lambda: later
    outcome = await service.run(caller(ANN), Configure(difficulty="easy"))
    assert outcome.table is table and outcome.result is None
    assert service.recorder.kinds() == ["LobbyChanged"]
    assert service.recorder.changes[0].table is table
    assert table.touched == later
    web = caller(ANN, answers=False)  # nothing will carry it: settled at once
    await service.run(web, Configure(minutes=10))
    assert service.recorder.kinds()[1:] == ["LobbyChanged", "Settled"]


@pytest.mark.parametrize(
    ("command", "key"),
    [
        (Configure(rules="expert"), "settings.unknown_rules"),
        (Configure(difficulty="custom"), "settings.unknown_difficulty"),
        (Configure(difficulty="nightmare"), "settings.unknown_difficulty"),
        (Configure(minutes=7), "settings.bad_minutes"),
        (Configure(minutes=16), "settings.bad_minutes"),
        (Configure(minutes=10.0), "settings.bad_minutes"),
        (Configure(minutes=True), "settings.bad_minutes"),
        (Configure(difficulty="hard", minutes=10), "settings.mismatch"),
        (Configure(rules="advanced", minutes=60), "settings.bad_minutes"),
    ],
)
async def test_a_setting_no_lobby_may_have_is_refused_and_nothing_changes(
    service, store, command, key
):
    table = (await service.run(caller(ANN), Open(difficulty="easy"))).table
    service.recorder.changes.clear()
    assert await refused(service, caller(ANN), command) == key
    assert settings(table) == ("basic", "easy", 720)
    stored = await store.get_game(table.id)
    assert (stored.rules, stored.difficulty, stored.length_seconds) == settings(table)
    assert service.recorder.changes == []


async def test_only_the_host_changes_the_settings_of_a_lobby_not_yet_started(service, store):
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(BOB), Join())
    service.recorder.changes.clear()
    with pytest.raises(UserError) as info:
        await service.run(caller(BOB), Configure(difficulty="hard"))
    assert info.value.key == "settings.host_only"
    assert "Only the host" in info.value.text("en") and f"<@{ANN}>" in info.value.text("en")
    assert await refused(service, caller(ANN, OUTSIDER), Configure(minutes=8)) == (
        "seat.not_member"
    )
    assert settings(table) == ("basic", "medium", 600) and service.recorder.changes == []

    await service.run(caller(ANN), Start())
    assert await refused(service, caller(ANN), Configure(difficulty="hard")) == "settings.started"
    assert settings(table) == ("basic", "medium", 600)
    stored = await store.get_game(table.id)
    assert (stored.status, stored.difficulty, stored.length_seconds) == ("active", "medium", 600)


async def test_no_lobby_no_settings(service):
    assert await refused(service, caller(ANN), Configure(rules="advanced")) == "error.no_game"
    assert CHANNEL not in service.by_channel


async def test_a_restart_keeps_the_settings_and_the_game_plays_them(service, store):
    table = (await service.run(caller(ANN), Open())).table
    await service.run(caller(ANN), Configure(rules="advanced"))
    await service.run(caller(ANN), Configure(minutes=14))
    assert settings(table) == ("advanced", "custom", 840)
    service.stop_timers()

    restarted = GameService(store, Stream(), Audience(store), seed=7)
    try:
        (back,) = await restarted.recover()
        assert back.id == table.id and back.status == "lobby"
        assert settings(back) == ("advanced", "custom", 840)
        started = (await restarted.run(caller(ANN), Start())).table
        assert started.game.rules.value == "advanced"
        assert started.deadline == pytest.approx(restarted.now() + 840, abs=5)
    finally:
        restarted.stop_timers()


async def test_every_choice_of_every_option_reaches_the_store_and_comes_back(service, store):
    """Each lobby option (bot.lobby_settings), each of its choices picked in its select:
    the lobby has it, its column keeps it, and the lobby read back has the same settings."""
    table = (await service.run(caller(ANN), Open())).table
    for option in OPTIONS:
        for value in option.choices:
            click = read_click(
                {"custom_id": f"apo:s:{table.id}:0:{option.name}", "values": [value]}
            )
            command = command_of(click)
            assert command == Configure(**{option.name: option.read(value)})
            await service.run(caller(ANN), command)
            assert table.settings.get(option) == option.read(value), (option.name, value)
            kept = await store._db.read(column, table.id, option.column)
            assert kept == option.to_column(option.read(value)), (option.name, value)
            back = Table.from_record(await store.get_game(table.id))
            assert back.settings == table.settings, (option.name, value)
    assert table.settings.as_json() == {o.name: table.settings.get(o) for o in OPTIONS}
    # The countdown is kept in seconds, as it always was.
    await service.run(caller(ANN), Configure(minutes=8))
    assert await store._db.read(column, table.id, "length_seconds") == 480


async def test_a_value_no_option_takes_is_refused_by_the_options_own_words(service):
    table = (await service.run(caller(ANN), Open())).table
    before = table.settings
    for option in OPTIONS:
        # not a choice, not even of its type; a choice's text where it reads as a number
        for wrong in ("nonsense", 10**6, True, *[c for c in option.choices if option.read(c) != c]):
            key = await refused(service, caller(ANN), Configure(**{option.name: wrong}))
            assert key == option.refusal, (option.name, wrong)
    assert table.settings == before
