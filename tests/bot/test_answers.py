"""Every answer says what happened: the private note of each action, the board's last
actions (a discard told with its draw), hands in either card display, and a kick."""

from __future__ import annotations

import logging
from collections import deque

import pytest

from bot.views.narration import narrate_event, private_note, step_text, tell_recent
from bot.views.render import hand_text
from devtools.fakediscord import ViolationKind
from engine import events as ev
from tests.bot.helpers import (
    Scene,
    bot_state,
)
from tests.engine.helpers import ANN, table

N = "\u202f"  # French typography's narrow no-break space


def play(game, kind: str, **action) -> list[ev.Event]:
    return game.apply({"type": kind, "player": ANN, **action})


@pytest.mark.parametrize(
    ("deck", "en", "fr"),
    [
        (
            ["7H"],
            "You drew 7♥; the deck ran out: the discard pile is being shuffled into a new one "
            "(10 s).",
            f"Vous avez pioché 7♥{N}; la pioche est épuisée{N}: la défausse est mélangée pour "
            "en former une nouvelle (10 s).",
        ),
        (
            [],
            "The deck ran out: the discard pile is being shuffled into a new one (10 s).",
            f"La pioche est épuisée{N}: la défausse est mélangée pour en former une nouvelle "
            "(10 s).",
        ),
    ],
)
def test_a_draw_into_a_reshuffle_says_what_was_drawn_and_that_the_deck_ran_out(deck, en, fr):
    events = play(table(hands=[["2C"], ["3C"]], deck=deck), "draw")
    assert private_note(events, ANN, "en", "suits") == en
    assert private_note(events, ANN, "fr", "suits") == fr


def test_a_build_says_which_section_and_what_it_cost():
    game = table(hands=[["3H", "4H", "5H"], ["3C"]])
    events = play(game, "build", colour="red", size=3)
    assert private_note(events, ANN, "en", "suits") == (
        "You built the large red section with 3♥, 4♥ and 5♥."
    )
    assert private_note(events, ANN, "fr", "colours") == (
        "Vous avez construit la grande section rouge avec 3 rouge, 4 rouge et 5 rouge."
    )


def reroll_offered():
    """An advanced launch whose accuracy die (2) fails, with a fail-safe to reroll it."""
    game = table(
        rules="advanced",
        hands=[["2S", "9C"], ["3C"]],
        rocket=[("red", 3), ("green", 2), ("yellow", 2)],
        sequence=["2C", "2H", "2D"],
        dice=[1, 2, 6, 6],
    )
    play(game, "launch", cards=["2S"])
    return game


def test_a_reroll_says_the_new_roll_and_an_accept_what_was_kept():
    game = reroll_offered()
    events = play(game, "reroll")
    step = next(e for e in events if isinstance(e, ev.LaunchStep))
    note = private_note(events, ANN, "en", "suits")
    assert note == f"🛟 You rerolled. {step_text(step, 'en')}"
    assert (
        note.startswith("🛟 You rerolled. Accuracy: 🎲 6 + Apophis's value 3") and "— hit." in note
    )
    assert private_note(events, ANN, "fr", "suits").startswith(
        f"🛟 Vous avez relancé. Précision{N}: 🎲 6"
    )
    events = play(reroll_offered(), "accept")
    assert private_note(events, ANN, "en", "suits") == "You kept the result of the accuracy roll."
    assert private_note(events, ANN, "fr", "suits") == (
        "Vous gardez le résultat du jet de précision."
    )


def told(events: list[ev.Event], language: str) -> list[tuple[ev.Event, str]]:
    """Events with their public lines, as the service tells them."""
    return [(e, line) for e in events if (line := narrate_event(e, language))]


def test_the_last_actions_tell_a_discard_with_its_draw_in_one_line():
    game = table(hands=[["2C", "3C", "4C", "5C"], ["3H"]], deck=["7H", "8H"])
    recent: deque[str] = deque(maxlen=10)
    tell_recent(recent, told(play(game, "draw"), "en"), "en")
    recent.append("⏱️ 2 minutes left before Apophis reaches Earth!")  # the clock, meanwhile
    assert list(recent) == [
        "<@1> drew 2 cards.",  # and nothing of the discard due: the board says it
        "⏱️ 2 minutes left before Apophis reaches Earth!",
    ]
    tell_recent(recent, told(play(game, "discard", cards=["2C"]), "en"), "en")
    assert list(recent) == [
        "⏱️ 2 minutes left before Apophis reaches Earth!",
        "<@1> drew 2 cards and discarded 1.",
    ]
    french: deque[str] = deque(["<@ann> a pioché 2 cartes."])
    tell_recent(french, told([ev.CardsDiscarded("ann", 2, ())], "fr"), "fr")
    assert list(french) == ["<@ann> a pioché 2 cartes et en a défaussé 2."]
    forced = ev.CardsDiscarded("ann", 1, (), forced=True)  # a skipped turn's: its own line
    tell_recent(french, told([forced], "fr"), "fr")
    assert len(french) == 2


def test_public_lines_agree_with_their_numbers_and_name_the_colour():
    scrapped = [ev.RocketScrapped("ann", 1, 0), ev.RocketScrapped("ann", 2, 1)]
    assert [narrate_event(e, "en") for e in scrapped] == [
        "♻️ <@ann> scrapped the rocket (1 section back to the depot).",
        "♻️ <@ann> scrapped the rocket (2 sections back to the depot, 1 card of the launch "
        "sequence to the discard pile).",
    ]
    assert narrate_event(ev.LaunchStarted("ann", {}, 8, 1), "en") == (
        "🚀 **Launch!** The 8-point rocket lifts off. Its fail-safes give 1 reroll."
    )
    assert narrate_event(ev.LaunchStarted("ann", {}, 1, 0), "fr") == (
        f"🚀 **Lancement{N}!** Le missile de 1 point décolle."
    )
    skipped = ev.LaunchStep("deflection", None, (), 0, 7, False, None)
    assert narrate_event(skipped, "en") == ("Deflection: skipped, the rocket has no green section.")
    assert narrate_event(skipped, "fr") == (
        f"Déviation{N}: étape sautée, le missile n’a aucune section verte."
    )


def test_a_hand_names_each_colour_once():
    hand = ["3H", "4H", "QC"]
    assert hand_text(hand, "en", "suits") == "🟩 clubs: Q♣\n🟥 hearts: 3♥ 4♥"
    assert hand_text(hand, "fr", "suits") == f"🟩 trèfles{N}: D♣\n🟥 cœurs{N}: 3♥ 4♥"
    assert hand_text(hand, "en", "colours") == "🟩 Q green\n🟥 3 red, 4 red"


@pytest.mark.e2e
@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_a_kicked_player_is_told_they_were_removed(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", "cid")
    held = len(table.game.hands[1])
    kicked = await scene.cmd("apophis kick", "ann", player=scene["bob"])
    said = kicked.response_data["content"]
    assert said == (
        f"🚪 <@{scene.id('ann')}> removed <@{scene.id('bob')}> from the game; their "
        f"{held} cards went to the discard pile."
    )
    await bot.outbox.drain()
    dm = fake_discord.dms(scene["bob"])[-1].content
    assert "you were removed from the game" in dm and "you left" not in dm


async def test_an_answer_too_late_for_discord_is_a_warning_and_the_move_stands(
    fake_discord, make_bot, caplog
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        fake_discord.interaction_deadline = 0.0  # every answer now comes too late
        await fake_discord.invoke("draw", user=scene["ann"], channel=scene.channel)
        violation = await fake_discord.expect_violation(ViolationKind.LATE_RESPONSE)
        assert "10062" in violation.message
        await bot_state(lambda: "answered too late" in caplog.text)
        assert table.version == 1  # the draw was saved
        await bot.outbox.drain()
    # No error logged (the fake turns one into a violation), no second answer tried.
    fake_discord.assert_no_violations()
    assert [r.levelno for r in caplog.records if "too late" in r.getMessage()] == [logging.WARNING]
