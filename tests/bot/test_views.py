"""The panel and the hand DM as pure functions of a game's views (no Discord)."""

from __future__ import annotations

from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import attachments, embeds, panel, render
from bot.views.message import Message
from devtools.fakediscord.layout import walk
from tests.engine.helpers import table as position


def table_with(**layout) -> Table:
    game = position(players=(1, 2), **layout)
    return Table(
        1,
        10,
        100,
        1,
        LobbySettings("basic", "easy", 10),
        "active",
        [1, 2],
        game=game,
        deadline=None,
    )


def actions(message: Message) -> dict[str, dict]:
    """Enabled components by custom id tail ("draw", "build:red.3")."""
    found = {}
    for item in walk(message.components.to_components()):
        if "custom_id" in item and not item.get("disabled"):
            found[item["custom_id"].split(":", 4)[-1]] = item
    return found


def test_the_panel_offers_exactly_the_sections_this_hand_can_pay_for_that_fit():
    table = table_with(hands=[["2H", "3H", "4H", "5D"], ["2C"]], rocket=[("yellow", 2)])
    moves = actions(panel.panel_message(table, 1, "en", now=0))
    offered = moves["build"]["options"]  # one select of them, and of the other moves
    builds = {o["value"]: o for o in offered if ":" not in o["value"] and o["value"] != "scrap"}
    # Red large does not fit on a medium; blue large and medium cannot be paid for.
    assert sorted(builds) == ["blue.1", "red.1", "red.2"]
    # Each says the rocket it makes: 2 yellow and 2 red points, fuel 2 where 1 is needed.
    assert builds["red.2"]["label"] == "medium red (2♥)"
    assert builds["red.2"]["description"] == "→ 4 points, fuel 2 (1 needed) ✓"
    # The live table's panel has a button each, its words the whole of it.
    buttons = {b["custom_id"]: b for b in panel.moves(table, table.game.view_for(1), "en") if b}
    label = buttons["apo:h:1:0:build:red.2"]["label"]
    assert label == "Build medium red (2♥) → 4 points, fuel 2 (1 needed) ✓"
    assert moves["launch:2H.5D"]["label"] == "Launch"  # (♥ and ♦: the custom id's)


def test_nothing_to_build_gives_the_real_reason():
    cases = [
        ({"hands": [["2H"], []], "rocket": [("red", 3)], "sequence": ["9S"]}, "launch sequence"),
        ({"hands": [["2H"], []], "rocket": [("red", 1)]}, "not hold enough cards of one suit"),
        ({"hands": [["2H", "3H"], []], "rocket": [("red", 1)]}, "fits on the 🟥 small red"),
    ]
    for layout, reason in cases:
        text = panel.situation(table_with(**layout), table_with(**layout).game.view_for(1), 0, "en")
        assert "Nothing to build" in text and reason in text, (layout, text)


def test_out_of_turn_every_move_is_disabled_but_hint_and_refresh():
    table = table_with(hands=[["2H"], ["2C", "3C"]])
    message = panel.panel_message(table, 2, "en", now=0)
    # a hint plans for his turn; a signal to the team takes none
    assert list(actions(message)) == ["hint", "refresh", "say"]
    assert "It is <@1>'s turn." in str(message.components.to_components())


def test_a_discard_is_a_button_a_card_on_the_panel_and_one_select_on_the_live_table():
    hand = ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    table = table_with(hands=[hand, []])
    table.game.phase = table.game.phase.DISCARD
    table.game.pending = {"count": 2}

    def shown(chosen: tuple[str, ...]) -> dict[str, dict]:
        return actions(panel.panel_message(table, 1, "en", now=0, chosen=chosen))

    # Each card's button chooses it (its id: the cards chosen once pressed); Discard waits.
    assert [k for k in shown(()) if k.startswith("pick")] == [f"pick:{c}" for c in hand]
    assert not [k for k in shown(()) if k.startswith("discard")]
    one = shown(("5H",))
    assert one["pick"]["label"] == "5♥" and one["discard:2H.5H"]["label"] == "2♥"  # 5♥ off
    # One chosen of two: each other card discards it with them, in one press.
    assert sorted(k for k in one if k.startswith("discard")) == [
        f"discard:{'.'.join(sorted([c, '5H'], key=hand.index))}" for c in hand if c != "5H"
    ]
    # The live table's picker: one select of exactly the excess.
    moves = panel.moves(table, table.game.view_for(1), "en")
    (select,) = [
        m for m in moves if m is not None and m["type"] == 3 and not m["custom_id"].endswith(":say")
    ]
    assert select["min_values"] == select["max_values"] == 2 and len(select["options"]) == 7


def test_a_hand_dm_fits_discords_limit_and_keeps_the_latest_changes():
    table = table_with(hands=[["2H", "3H"], []])
    changes = [f"change number {i} " + "x" * 300 for i in range(200)]
    text = render.hand_dm(table, ("2H", "3H"), changes, "en")
    assert len(text) <= render.CONTENT_LIMIT
    assert "change number 199" in text and "change number 190" not in text
    assert "2♥ 3♥" in text


def test_the_hint_button_is_enabled_throughout_the_game_but_a_reshuffle():
    def hint_enabled(table: Table, player: int) -> bool:
        return "hint" in actions(panel.panel_message(table, player, "en", now=0))

    table = table_with(hands=[["2H", "3H", "4H", "5H", "6H", "7H", "8H"], ["2C"]])
    assert hint_enabled(table, 1) and hint_enabled(table, 2)  # her turn, and his to come
    phases = table.game.phase
    for phase, pending in [
        (phases.DISCARD, {"count": 2}),
        (phases.REROLL, {"step": "accuracy", "index": 1, "rerolls": 1}),
    ]:
        table.game.arrange(phase=phase, pending=pending)
        assert hint_enabled(table, 1) and hint_enabled(table, 2), phase
    table.game.arrange(phase=phases.RESHUFFLE, pending={"player": 1, "draws_left": 1})
    assert not hint_enabled(table, 1) and not hint_enabled(table, 2)
    assert ":hint" in str(panel.panel_message(table, 1, "en", now=0).components.to_components())


def test_a_seat_on_autopilot_is_marked_while_the_game_runs_only():
    table = table_with(hands=[["2H"], ["2C"]])
    table.autopilot.add(2)
    view = table.game.public_view()

    def players() -> str:
        (field,) = [f for f in embeds.board_embed(table, view, 60).fields if f.name == "Players"]
        return field.value

    assert "on autopilot" in players().split("\n")[1]
    assert attachments.seat_names(table, view) == ("#1", "#2 (autopilot)")
    table.status = "finished"  # the final board marks no seat, whoever played it last
    assert "autopilot" not in players()
    assert attachments.seat_names(table, view) == ("#1", "#2")
