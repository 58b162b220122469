"""How the game's checks read: the rocket's fuel, Apophis's value, a failed launch, counters.

Each is said once, where players read it (the board, the panel, the launch report, the
final board's launches), in English and in French.
"""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalogs import t
from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import embeds, launches, narration, panel, render
from devtools.fakediscord.layout import walk
from engine import events as ev
from tests.engine.helpers import table as position
from tests.i18n.test_wording import catalog


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


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_rocket_without_sections_has_no_points_fuel_or_chances_anywhere(language):
    table = table_with(hands=[["2H", "3H"], ["2C"]])
    view = table.game.view_for(1)
    assert render.rocket_line(view.table, language) == ""
    situation = panel.situation(table, view, 0, language)
    board = embeds.board_embed(table, view.table, 600).description
    for text in (situation, board):
        assert "🚀" not in text and "%" not in text and not re.search(r"\b0 points?\b", text)
        assert "\n\n" not in text  # no empty line where the rocket's would be


@pytest.mark.parametrize(
    ("language", "fuel"),
    [("en", "fuel 2 (1 needed) ✓"), ("fr", "combustible 2 (1 requis) ✓")],
)
def test_more_fuel_than_needed_reads_naturally(language, fuel):
    table = table_with(hands=[["2H", "3H", "4H"], ["2C"]], rocket=[("yellow", 2)])
    view = table.game.view_for(1)
    line = render.rocket_line(view.table, language)
    assert line.startswith("🚀 2 points · " + fuel + " · ")
    assert line in panel.situation(table, view, 0, language)
    builds = [
        o["description"]
        for c in walk(panel.panel_message(table, 1, language, now=0).components.to_components())
        if c.get("custom_id", "").endswith(":build")
        for o in c["options"]
        if ":" not in o["value"] and o["value"] != "scrap"  # the sections (not a launch's part)
    ]
    assert builds and all("(1 needed)" in b or "(1 requis)" in b for b in builds)
    assert not any(re.search(r"\d+/\d+ [✓✗]", b) for b in builds)  # never "fuel 2/1"


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "fuel 0 (1 needed) ✗ · launched now, it fails the fuel check"),
     ("fr", "combustible 0 (1 requis) ✗ · lancé maintenant, il échoue au contrôle du combustible")],
)  # fmt: skip
def test_too_little_fuel_says_which_check_fails(language, words):
    view = table_with(hands=[["2H"], ["2C"]], rocket=[("green", 3)]).game.view_for(1)
    assert words in render.rocket_line(view.table, language)


#: A missed accuracy roll: 2 on the die, Apophis's value 3 and 1 guidance, 7 needed.
ACCURACY = ev.LaunchStep(
    "accuracy", 2, (("die", 2), ("Apophis", 3), ("guidance", 1)), 6, 7, False, False
)


@pytest.mark.parametrize(
    ("language", "told"),
    [("en", "🎲 2 + Apophis's value 3 + guidance 1 = 6"),
     ("fr", "🎲 2 + valeur d’Apophis 3 + guidage 1 = 6")],
)  # fmt: skip
def test_a_check_names_apophiss_number_as_its_value(language, told):
    line = narration.step_text(ACCURACY, language)
    assert told in line
    assert not re.search(r"(?<!d’)Apophis \d", line)  # a bare "Apophis 3"


@pytest.mark.parametrize(
    ("language", "missed", "hit"),
    [
        (
            "en",
            "The launch failed: the rocket did not hit Apophis. Its sections return to the depot.",
            "The rocket hit Apophis; its sections return to the depot.",
        ),
        (
            "fr",
            "Le lancement a échoué\u202f: le missile n’a pas touché Apophis. Ses sections "
            "retournent à la réserve.",
            "Le missile a touché Apophis\u202f; ses sections retournent à la réserve.",
        ),
    ],
)
def test_a_launchs_end_says_whether_it_hit_before_the_sections_return(language, missed, hit):
    assert narration.narrate_event(ev.LaunchEnded(False, 2, 2), language) == missed
    assert narration.narrate_event(ev.LaunchEnded(True, 2, 2), language) == hit
    assert narration.step_text(ACCURACY, language).endswith(("— miss.", "— raté."))


@pytest.mark.parametrize(
    ("language", "result"),
    [("en", "hit, damage 2/3, deflection 1/5 → 3/5"),
     ("fr", "touché, dégâts 2/3, déviation 1/5 → 3/5")],
)  # fmt: skip
def test_a_counter_a_launch_raised_twice_is_named_once(language, result):
    """A basic launch's damage and deflection each add a deflection counter: the launch's
    line names the counter once, from before the launch to after it."""
    events = [
        ev.SectionBuilt(1, "red", 3, ("KH",) * 3),
        ev.SectionBuilt(1, "green", 2, ("KS",) * 2),
        ev.LaunchStarted(1, {}, 5, 1),
        ev.LaunchStep("accuracy", 4, (), 9, 6, False, True),
        ev.ApophisDamaged(2, 5),
        ev.CounterAdded(2),
        ev.CounterAdded(3),
        ev.LaunchEnded(True, 2, 3),
        ev.SectionBuilt(1, "red", 3, ("KH",) * 3),
        ev.LaunchStarted(1, {}, 3, 1),
        ev.ApophisDamaged(3, 3),
        ev.LaunchEnded(True, 1, 1),
    ]
    first, second = launches.summary(events, language).split("\n")
    assert first.endswith(result)
    assert len(re.findall("deflection|déviation", first)) == 1
    assert second.endswith(("hit, damage 3/3", "touché, dégâts 3/3"))


def test_french_tells_the_hits_in_the_games_words_not_footballs():
    """ "4 tirs au but" is football's: the French rules say a missile touches Apophis."""
    football = [key for key, texts in catalog("fr").items() if any("au but" in x for x in texts)]
    assert football == []
    assert [t("fr", "story.hits", count=n) for n in (0, 1, 2, 5)] == [
        "aucun n’a touché Apophis",
        "1 a touché Apophis",
        "2 ont touché Apophis",
        "5 ont touché Apophis",
    ]
