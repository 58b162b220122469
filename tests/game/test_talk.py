"""Table talk through the game layer: a signal said from the panel or the live table, shown to
the team on the board and the table in each reader's language, checked against the hand,
limited, kept across a restart, and said by crewmates."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.game.audience import Audience
from bot.game.changes import BoardOutdated, Stream
from bot.game.clicks import command_of, read_click
from bot.game.commands import AddCrewmate, Join, Move, Open, Say, Start
from bot.game.plays import play
from bot.game.replies import reply
from bot.game.service import GameService
from bot.game.talk import RATE, WINDOW
from bot.i18n.catalogs import t
from bot.views import panel, web_state
from bot.views.components import board_message
from bot.views.plain import Names
from engine import Colour, colour_of
from engine.signals import Signal
from tests.game.conftest import caller

ANN, BOB = 1, 2
RED = Colour.RED


async def started(service, *others) -> object:
    table = (await service.run(caller(ANN), Open())).table
    for command in others:
        await service.run(caller(BOB) if command is Join else caller(ANN), command())
    await service.run(caller(ANN), Start(first=ANN))
    return table


async def refused(service, who, command) -> UserError:
    with pytest.raises(UserError) as info:
        await service.run(who, command)
    return info.value


def board_text(table) -> str:
    embed = board_message(table).embed
    return "\n".join(f"{f.name}: {f.value}" for f in embed.fields)


def holding(table, player: int, colour: Colour) -> int:
    return sum(1 for c in table.game.view_for(player).hand if colour_of(c) is colour)


async def test_a_signal_shows_beside_its_player_on_the_board_and_the_table(service):
    table = await started(service, Join)
    version = table.version
    service.recorder.changes.clear()
    outcome = await service.run(caller(BOB), Say(Signal("build", RED)))
    assert table.version == version  # no move: the game did not change, nor its turn
    assert table.game.active_player == ANN
    assert BoardOutdated(table) in service.recorder.changes
    assert "BoardChanged" not in service.recorder.kinds()
    bob_line = next(line for line in board_text(table).split("\n") if "<@2>" in line)
    assert bob_line.endswith("· 💬 I'll build ♥")
    table.language = "fr"  # the channel reads French: the board says it in French
    assert "💬 Je construis ♥" in board_text(table)
    for language, words in (("en", "I'll build ♥"), ("fr", "Je construis ♥")):  # each viewer's
        seats = web_state.public(table, 0.0, language, markup=Names(table))["seats"]
        assert [seat["said"] for seat in seats] == [None, words]
    assert reply(outcome, BOB, "en") == "💬 You told the team: I'll build ♥"
    french = reply(outcome, BOB, "fr")
    assert french.startswith("💬 Vous avez dit à l’équipe") and french.endswith(" Je construis ♥")


async def test_a_signal_from_the_panels_say_menu_is_said_even_from_an_older_panel(service):
    table = await started(service, Join)
    drawn = panel.panel_message(table, BOB, "en")
    say_menu = next(
        c
        for row in drawn.components.to_components()
        if row.get("type") == 1
        for c in row["components"]
        if c["custom_id"].endswith(":say")
    )
    count = holding(table, BOB, Colour.BLUE)
    value = f"hold.blue.{count}"
    assert value in [o["value"] for o in say_menu["options"]]
    await service.run(caller(ANN), Move({"type": "draw"}))  # the panel is now an older one
    click = read_click({"custom_id": say_menu["custom_id"], "values": [value]})
    assert command_of(click) == Say(Signal("hold", Colour.BLUE, count))
    note = await play(service, caller(BOB), table, click, "en")
    assert note.startswith("💬 You told the team: I hold")
    assert table.said[BOB].signal == Signal("hold", Colour.BLUE, count)


async def test_a_false_hold_is_refused_politely_and_nothing_is_said(service):
    table = await started(service, Join)
    count = holding(table, BOB, Colour.BLUE)
    error = await refused(service, caller(BOB), Say(Signal("hold", Colour.BLUE, count + 1)))
    assert error.key == "talk.refused.hold_untrue"
    assert "your hand" in error.text("en") and "votre main" in error.text("fr")
    assert table.said == {} and await service.store.open_signals() == []
    forged = read_click({"custom_id": f"apo:p:{table.id}:0:say", "values": ["show.7H"]})
    with pytest.raises(UserError) as info:
        command_of(forged)
    assert info.value.key == "error.menu_options"


async def test_signals_past_the_rate_are_refused_until_the_window_has_passed(service, timer):
    table = await started(service, Join)
    for kind in ("dont_scrap", "launch_next", "dont_scrap")[:RATE]:
        await service.run(caller(BOB), Say(Signal(kind)))
    error = await refused(service, caller(BOB), Say(Signal("need", RED)))
    assert error.key == "talk.too_many" and error.params == {"seconds": int(WINDOW)}
    assert "30 seconds" in error.text("en") and "30 secondes" in error.text("fr")
    assert table.said[BOB].signal == Signal("dont_scrap")  # the refused one said nothing
    await service.run(caller(ANN), Say(Signal("need", RED)))  # each person has their own
    await timer.advance(WINDOW - 1)
    assert (await refused(service, caller(BOB), Say(Signal("need", RED)))).params == {"seconds": 1}
    await timer.advance(1)
    await service.run(caller(BOB), Say(Signal("need", RED)))
    assert table.said[BOB].signal == Signal("need", RED)


async def test_the_latest_signals_come_back_after_a_restart(service, store):
    table = await started(service, Join)
    await service.run(caller(BOB), Say(Signal("build", RED)))
    await service.run(caller(BOB), Say(Signal("dont_scrap")))  # replaces the first
    await service.run(caller(ANN), Say(Signal("launch_next")))
    before = dict(table.said)
    service.stop_timers()
    restarted = GameService(store, Stream(), Audience(store), seed=7)
    try:
        (back,) = await restarted.recover()
        assert back.said == before
        assert "💬 Don't scrap" in board_text(back) and "💬 Launch next turn" in board_text(back)
    finally:
        restarted.stop_timers()


async def test_who_holds_no_seat_cannot_signal(service):
    table = await started(service)
    assert (await refused(service, caller(BOB), Say(Signal("dont_scrap")))).key == "error.no_hand"
    assert table.said == {}


async def test_a_crewmate_says_its_plan_on_the_board(service, timer):
    """Ann and a crewmate: Ann draws; the crewmate plays its turn and tells the team what it
    builds next, which the board shows beside it."""
    table = await started(service, AddCrewmate)
    await service.run(caller(ANN), Move({"type": "draw"}))
    hand = table.game.view_for(ANN).hand
    await service.run(caller(ANN), Move({"type": "discard", "cards": list(hand[:1])}))
    assert table.game.active_player == -1
    for _ in range(10):
        await timer.advance(3)
        for task in list(service.crew.tasks):
            await task
        if -1 in table.said:
            break
    said = table.said[-1]
    assert said.signal.kind in ("build", "need")
    words = t("en", f"talk.{said.signal.kind}", suit=said.signal.colour.symbol)
    assert f"💬 {words}" in board_text(table)
