"""What a crewmate says of a move its teammates might not expect, and hints that name the
plan: every notice and reason of engine.crew worded in English and French, numbers with
their nouns' plural forms, odds as whole percentages."""

from __future__ import annotations

import pytest

from bot.game.crewmates import notice_of
from bot.i18n.catalogs import has
from bot.table import Notice
from bot.views.hints import decision_text
from bot.views.narration import narrate_event, notice_line
from engine import events as ev
from engine.crew import NOTICES, REASONS, Decision, decide
from tests.engine.helpers import ANN, BOB, table

ROBOT = -1
SCRAP = ev.RocketScrapped(player=ROBOT, sections=3, cards=1)
PLAYED = ev.SequenceExtended(
    player=ROBOT, added=("red", "blue"), colours=("green", "red", "blue"), cards=("7H", "2D")
)
PLAN = (("red", 3), ("yellow", 2), ("blue", 1))
RISK = {"success": 0.083, "damage": 0.083, "deflect": 0.0, "hit": 0.5, "explode": 0.0, "rerolls": 0}


def told(event: ev.Event, code: str, params: dict, language: str) -> str | None:
    return narrate_event(event, language, Notice(code, params, PLAN))


#: Every scrap notice: its params, and its line in English and in French.
SCRAPS = [
    (
        "scrap_no_fuel",
        {"fuel": 1, "points": 7, "needed": 2},
        "♻️ 🤖 Robot 1 scrapped the rocket: it cannot pass the fuel check, even with all "
        "the yellow that still fits (fuel 1 of 7 points, 2 needed).",
        "♻️ 🤖 Robot 1 a mis le missile au rebut\u202f: il ne peut pas réussir le contrôle du "
        "combustible, même avec tout le jaune qu’on peut encore y ajouter (combustible 1 sur "
        "7 points, il en faut 2).",
    ),
    (
        "scrap_no_warhead",
        {"warheads": ["red", "green"]},
        "♻️ 🤖 Robot 1 scrapped the rocket: no warhead (🟥 🟩) can go on it any more and "
        "still pass the fuel check.",
        "♻️ 🤖 Robot 1 a mis le missile au rebut\u202f: il ne peut plus recevoir d’ogive (🟥 🟩) "
        "tout en réussissant le contrôle du combustible.",
    ),
    (
        "scrap_sequence_dead",
        {"cause": "fuel", "fuel": 0, "needed": 2},
        "♻️ 🤖 Robot 1 scrapped the rocket: its launch sequence is under way, so no section "
        "can be added, and with 0 fuel it fails the fuel check (2 needed).",
        "♻️ 🤖 Robot 1 a mis le missile au rebut\u202f: sa séquence de lancement est en cours, "
        "on ne peut plus y ajouter de section, et avec un combustible de 0 il échoue au "
        "contrôle du combustible (il en faut 2).",
    ),
    (
        "scrap_sequence_dead",
        {"cause": "warhead", "fuel": 3, "needed": 2},
        "♻️ 🤖 Robot 1 scrapped the rocket: its launch sequence is under way, so no section "
        "can be added, and it has no warhead.",
        "♻️ 🤖 Robot 1 a mis le missile au rebut\u202f: sa séquence de lancement est en cours, "
        "on ne peut plus y ajouter de section, et il n’a pas d’ogive.",
    ),
    (
        "scrap_too_late",
        {"turns_left": 10, "turns_needed": 12},
        "♻️ 🤖 Robot 1 scrapped the rocket: it needs about 12 more turns and the clock "
        "leaves about 10; starting again toward red L + yellow M + blue S is quicker.",
        "♻️ 🤖 Robot 1 a mis le missile au rebut\u202f: il lui faut encore environ 12 tours et "
        "il en reste environ 10\u202f; repartir de zéro avec le missile rouge G + jaune M + "
        "bleu P ira plus vite.",
    ),
    (
        "scrap_restart",
        {"gain": 2.37},
        "♻️ 🤖 Robot 1 scrapped its own rocket: starting again toward red L + yellow M + "
        "blue S is about 2.4 times quicker.",
        "♻️ 🤖 Robot 1 a mis son propre missile au rebut\u202f: repartir de zéro avec le "
        "missile rouge G + jaune M + bleu P ira environ 2,4 fois plus vite.",
    ),
]


@pytest.mark.parametrize(("code", "params", "en", "fr"), SCRAPS)
def test_every_scrap_is_told_with_its_reason_in_each_language(code, params, en, fr):
    assert told(SCRAP, code, params, "en") == en
    assert told(SCRAP, code, params, "fr") == fr


@pytest.mark.parametrize(
    ("params", "en", "fr"),
    [
        (
            RISK,
            "8% chance to damage Apophis.",
            "8\u202f% de chances d’endommager Apophis.",
        ),
        (
            {**RISK, "success": 0.186, "deflect": 0.125},
            "19% chance to damage or deflect Apophis.",
            "19\u202f% de chances d’endommager ou de dévier Apophis.",
        ),
        (
            {**RISK, "success": 0.139, "damage": 0.139, "explode": 0.333, "rerolls": 1},
            "14% chance to damage Apophis, and 33% that the rocket explodes.",
            "14\u202f% de chances d’endommager Apophis, et 33\u202f% de risque que le missile "
            "explose.",
        ),
    ],
)
def test_a_risky_launch_is_told_with_its_odds_in_whole_percentages(params, en, fr):
    assert told(PLAYED, "launch_risky", params, "en") == (
        f"🔢 🤖 Robot 1 added 🟥 🟦 to the launch sequence (3/4) for a risky launch: {en}"
    )
    assert told(PLAYED, "launch_risky", params, "fr") == (
        "🔢 🤖 Robot 1 a ajouté 🟥 🟦 à la séquence de lancement (3/4) pour un lancement "
        f"risqué\u202f: {fr}"
    )


def test_numbers_meet_their_nouns_in_the_right_form():
    one_point = {"fuel": 0, "points": 1, "needed": 1}
    assert "(fuel 0 of 1 point, 1 needed)" in told(SCRAP, "scrap_no_fuel", one_point, "en")
    assert "(combustible 0 sur 1 point, il" in told(SCRAP, "scrap_no_fuel", one_point, "fr")
    one_turn = {"turns_left": 0, "turns_needed": 1}
    assert "about 1 more turn and" in told(SCRAP, "scrap_too_late", one_turn, "en")
    assert "environ 1 tour et" in told(SCRAP, "scrap_too_late", one_turn, "fr")


def test_a_notice_tells_only_the_move_it_explains():
    """A scrap notice words the scrap, a launch notice the cards played; every other event
    is told as usual, and a notice never words what it does not explain."""
    drew = ev.CardsDrawn(player=ROBOT, count=2, cards=("2C", "3C"))
    scrap = Notice("scrap_no_fuel", {"fuel": 1, "points": 7, "needed": 2}, PLAN)
    risky = Notice("launch_risky", RISK)
    for language in ("en", "fr"):
        assert notice_line(PLAYED, scrap, language) is None
        assert notice_line(SCRAP, risky, language) is None
        assert narrate_event(drew, language, scrap) == narrate_event(drew, language)
        assert narrate_event(PLAYED, language, scrap) == narrate_event(PLAYED, language)
        assert narrate_event(SCRAP, language, risky) == narrate_event(SCRAP, language)


def test_every_notice_and_reason_has_words():
    assert {code for code, *_ in SCRAPS} | {"launch_risky"} == set(NOTICES)
    assert all(has(f"hint.{reason}") for reason in REASONS)


def test_the_driver_passes_the_decisions_notice_and_plan():
    game = table(
        rocket=[("red", 3), ("blue", 2), ("blue", 1)],
        builders=[BOB, ANN, BOB],
        hands=[["10H", "3H", "6S"], ["6D"]],
    )
    decision = decide(game.view_for(ANN))
    notice = notice_of(decision)
    assert notice == Notice(
        "scrap_no_fuel", {"fuel": 1, "points": 7, "needed": 2}, decision.plan.pieces
    )
    assert notice_of(Decision({"type": "draw", "player": ANN}, "draw_nothing")) is None


# ------------------------------------------------------------------ hints


def hint(language: str, time_left: float | None = None, crewmates=(), **position) -> str:
    decision = decide(table(**position).view_for(ANN), time_left, crewmates=crewmates)
    return decision_text(decision, language, "suits")


def test_a_build_hint_names_the_plan_what_the_team_has_and_the_section():
    """Bob is a crewmate (beside a person of whom nothing is known yet, the crew would
    draw for its plan's large section: see tests/engine/test_crew_team.py)."""
    position = {
        "rocket": [("red", 3)],
        "builders": [BOB],
        "hands": [["3S", "4S", "9D", "10D"], ["6H", "7H", "8H"]],
        "crewmates": {BOB},
    }
    assert hint("en", **position) == (
        "Build the medium yellow section toward red L + blue M + yellow M + red S (the team "
        "has red L; damage 56% a launch)."
    )
    assert hint("fr", **position) == (
        "Construisez la section moyenne jaune du missile rouge G + bleu M + jaune M + rouge P "
        "(l’équipe a déjà rouge G\u202f; dégâts 56\u202f% par lancement)."
    )


def test_a_draw_hint_names_the_plan_and_what_it_still_needs():
    position = {"rocket": [("red", 3)], "builders": [BOB], "hands": [["2H"], ["6H"]]}
    plan = "red L + blue L + yellow L + red M + red S"
    assert hint("en", **position) == (
        f"Draw: the planned rocket, {plan} (the team has red L), still needs 2 ♥, 3 ♦ and 3 ♠."
    )
    plan = "rouge G + bleu G + jaune G + rouge M + rouge P"
    assert hint("fr", **position) == (
        f"Piochez\u202f: le missile prévu, {plan} (l’équipe a déjà rouge G), demande encore "
        "2 ♥, 3 ♦ et 3 ♠."
    )


def test_a_launch_hint_names_the_rocket_and_what_the_sequence_then_needs():
    position = {
        "rocket": [("red", 3), ("yellow", 3), ("blue", 2), ("green", 1)],
        "builders": [BOB, ANN, BOB, BOB],
        "sequence": ["5C"],
        "sequence_by": [BOB],
        "hands": [["7H"], ["6H"]],
    }
    assert hint("en", **position) == (
        "Play 7♥: that adds to the launch sequence of red L + yellow L + blue M + green S, "
        "which then needs ♦ ♠ (damage 42%, deflection 14%)."
    )
    assert hint("fr", **position) == (
        "Jouez 7♥\u202f: cela prolonge la séquence de lancement du missile rouge G + jaune G + "
        "bleu M + vert P, à laquelle il manquera encore ♦ ♠ (dégâts 42\u202f%, "
        "déviation 14\u202f%)."
    )


def test_a_scrap_hint_says_why_and_what_to_aim_for_next():
    position = {
        "rocket": [("red", 3), ("blue", 2), ("blue", 1)],
        "builders": [BOB, ANN, BOB],
        "hands": [["10H", "3H", "6S"], ["6D"]],
    }
    assert hint("en", **position) == (
        "Scrap the rocket: it cannot pass the fuel check, even with all the yellow that still "
        "fits (fuel 1 of 7 points, 2 needed). Then aim for red L + blue L + yellow L + red M "
        "+ red S."
    )
    assert hint("fr", **position).startswith(
        "Mettez le missile au rebut\u202f: il ne peut pas réussir le contrôle du combustible"
    )
    assert hint("fr", **position).endswith(
        " Visez ensuite le missile rouge G + bleu G + jaune G + rouge M + rouge P."
    )


@pytest.mark.parametrize(
    ("dropped", "en", "fr"),
    [
        (1, "Discard 5♥: the best plan needs it least.", "c’est la carte dont"),
        (2, "Discard 5♥ 7♠: the best plan needs them least.", "ce sont les cartes dont"),
    ],
)
def test_a_discard_hint_says_it_for_one_card_and_them_for_more(dropped, en, fr):
    hands = [["2C", "3C", "4C", "5H", "6H", "7S", "8S"][: 5 + dropped], ["2D"]]
    game = table(rules="advanced", hands=hands)
    game.phase, game.pending = game.phase.DISCARD, {"count": dropped}
    decision = decide(game.view_for(ANN))
    assert decision.reason == "discard" and len(decision.action["cards"]) == dropped
    assert decision_text(decision, "en", "suits") == en
    assert fr in decision_text(decision, "fr", "suits")
