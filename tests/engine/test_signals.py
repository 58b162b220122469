"""Table talk in the engine: the closed set of signals, checked against the speaker's own view,
how long one stands, and the crew heeding a person's and saying its own plan."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine import Colour, Game, colour_of, simulate
from engine.crew import REASONS, decide, says, talk
from engine.signals import KINDS, MOST_HELD, SUITED, Said, Signal, offered, refusal, say, standing
from engine.simulate import POLICIES, crew_policy, record
from engine.views import PlayerView
from tests.engine.helpers import ANN, BOB, CID, table

RED, BLUE, YELLOW = Colour.RED, Colour.BLUE, Colour.YELLOW
EVERY_SIGNAL = [
    Signal(kind, colour, count)
    for kind in KINDS
    for colour in (Colour if kind in SUITED else (None,))
    for count in (range(MOST_HELD + 1) if kind == "hold" else (None,))
]


def test_every_signal_reads_back_from_its_code_and_nothing_else_reads():
    assert len({s.code for s in EVERY_SIGNAL}) == len(EVERY_SIGNAL)
    for signal in EVERY_SIGNAL:
        assert Signal.read(signal.code) == signal
    for forged in ("", "build", "build.pink", "hold.red", "hold.red.9", "hold.red.-1",
                   "launch_next.red", "dont_scrap.2", "build.red.3", "show.7H", "7H", None, 3,
                   "hold.red.²", "x" * 41):  # fmt: skip
        with pytest.raises(ValueError):
            Signal.read(forged)


def random_hands(count: int) -> list[tuple[str, ...]]:
    deck = [c for c in Game.new([ANN], "basic", seed=3).deck]
    rng = random.Random(48)
    return [tuple(rng.sample(deck, rng.randint(0, 7))) for _ in range(count)]


def test_no_signal_tells_more_of_a_hand_than_the_count_of_each_suit():
    """Over 300 hands: what a player may say (the signals offered, their codes) is the
    same for any two hands of the same suit counts, whatever the ranks; no code names a
    rank; and the only true "hold" is the hand's own count."""
    seen: dict[tuple[int, ...], tuple[str, ...]] = {}
    for hand in random_hands(300):
        game = table(hands=[list(hand), []])
        view = game.view_for(ANN)
        codes = tuple(s.code for s in offered(view))
        counts = Counter(colour_of(c) for c in hand)
        key = tuple(counts[c] for c in Colour)
        assert seen.setdefault(key, codes) == codes  # ranks make no difference
        for code in codes:
            assert not any(card in code for card in hand)  # no card's code in it
            assert not any(part.isdigit() and len(part) > 1 for part in code.split("."))
        for signal in EVERY_SIGNAL:
            true = refusal(view, signal) is None
            if signal.kind == "hold":
                assert true == (signal.count == counts[signal.colour])
            if signal.kind == "can_launch":
                assert true == bool(counts[signal.colour])
            assert true == (signal in offered(view))


def test_a_false_hold_and_a_launch_card_not_held_are_refused():
    game = table(hands=[["2D", "3D", "4H"], ["5S"]], sequence=["6H"])
    view = game.view_for(ANN)
    assert refusal(view, Signal("hold", BLUE, 2)) is None
    assert refusal(view, Signal("hold", BLUE, 3)) == "hold_untrue"
    assert refusal(view, Signal("hold", YELLOW, 1)) == "hold_untrue"  # Bob's, not hers
    assert refusal(view, Signal("hold", YELLOW, 0)) is None
    assert refusal(view, Signal("can_launch", BLUE)) is None
    assert refusal(view, Signal("can_launch", YELLOW)) == "cannot_launch"
    assert refusal(view, Signal("can_launch", RED)) == "cannot_launch"  # in the sequence
    gone = PlayerView(CID, (), view.table)  # a view of someone not seated
    assert refusal(gone, Signal("dont_scrap")) == "not_seated"
    game.end("host")
    assert refusal(game.view_for(ANN), Signal("dont_scrap")) == "over"


def test_a_signal_stands_until_the_end_of_its_speakers_next_turn():
    game = table(players=(ANN, BOB, CID), hands=[[], [], []])
    start = game.turn
    ann_now = say(game.view_for(ANN), Signal("dont_scrap"))  # her turn: until her next
    bob_now = say(game.view_for(BOB), Signal("need", RED))  # out of turn: until his next
    assert (ann_now.until, bob_now.until) == (start + 3, start + 1)
    for turns, heard in ((0, {ANN, BOB}), (1, {ANN, BOB}), (2, {ANN}), (3, {ANN}), (4, set())):
        while game.turn < start + turns:
            game.skip_turn()
        assert set(standing([ann_now, bob_now], game.public_view())) == heard
    newer = say(game.view_for(BOB), Signal("launch_next"))
    assert standing([bob_now, newer], game.public_view())[BOB] is newer


def decision_of(game: Game, said=(), crewmates=()):
    decision = decide(game.view_for(ANN), said=said, crewmates=crewmates)
    assert decision is not None and decision.reason in REASONS
    return decision


def test_a_claim_breaks_a_tie_the_crew_builds_another_section_of_that_size():
    """Ann (the crew) would build the large red of a rocket that also needs a large
    yellow, which she holds too; Bob said "I'll build ♥": she builds the large yellow
    toward the same rocket, and leaves the red to him."""
    game = table(hands=[["7H", "8H", "9H", "2S", "3S", "4S"], ["6H", "5H", "4H"]])
    silent = decision_of(game)
    assert silent.action == {"type": "build", "player": ANN, "colour": "red", "size": 3}
    heard = say(game.view_for(BOB), Signal("build", RED))
    told = decision_of(game, [heard])
    assert told.action == {"type": "build", "player": ANN, "colour": "yellow", "size": 3}
    assert told.plan is not None and silent.plan is not None
    assert told.plan.pieces == silent.plan.pieces  # the same rocket, Bob's red to come
    # the same signal from a crewmate changes nothing: crewmates plan alike
    assert decision_of(game, [heard], crewmates={ANN, BOB}) == decision_of(game, (), {ANN, BOB})


def test_a_claim_is_not_met_with_a_second_section_of_a_colour_on_the_pad():
    """Ann's rocket (red L and yellow M on the pad) lacks a medium blue and a medium red,
    and she holds both. Bob said "I'll build ♦": a second red would change the rocket he
    counts on more than a new colour does (in the balance lab it broke the planner's
    rockets), so she makes her own move, the blue, which he then finds on the pad."""
    game = table(
        hands=[["2D", "3D", "4H", "6D", "7H"], ["8D", "9D", "5S"]],
        rocket=[("red", 3), ("yellow", 2)],
        builders=[BOB, BOB],
    )
    silent = decision_of(game)
    assert silent.action == {"type": "build", "player": ANN, "colour": "blue", "size": 2}
    assert silent.plan is not None
    left = [p for p, b in zip(silent.plan.pieces, silent.plan.built, strict=True) if not b]
    assert ("red", 2) in left  # the other medium of her plan, paid for by her hearts
    assert decision_of(game, [say(game.view_for(BOB), Signal("build", BLUE))]) == silent


def test_a_claim_is_not_met_with_a_section_after_which_the_rocket_could_not_score():
    """On a medium yellow, Ann would build the medium red, after which the rocket can
    fly; Bob said "I'll build ♥". Her medium blue, the other medium of her plan, would
    leave a rocket without a warhead that nobody could launch: no tie, as the crew first
    weighs sections of one size by what they leave to launch (a position of the balance
    lab, beside the impatient launcher, where the heeded moves offered her that blue)."""
    game = table(
        hands=[["QH", "8D", "7D", "7H", "QD"], ["8S", "9H", "6C"]],
        rocket=[("yellow", 2)],
        builders=[BOB],
    )
    view = game.view_for(ANN)
    first = decision_of(game)
    assert first.action == {"type": "build", "player": ANN, "colour": "red", "size": 2}
    assert first.plan is not None and ("blue", 2) in first.plan.pieces
    blue = replace(first, action={**first.action, "colour": "blue"})
    heard = [say(game.view_for(BOB), Signal("build", RED))]
    assert talk.settle(view, first, blue, heard) is first


def test_a_claim_never_costs_the_crew_its_better_move():
    """Ann's rocket starts with the large red and nothing else of that size is hers to
    build: Bob's "I'll build ♥" does not make her draw (a turn lost, measured in the
    balance lab); she builds the red, which he then finds on the pad."""
    game = table(hands=[["7H", "8H", "9H", "2C", "3C", "4C", "5S"], ["6H", "5H", "4H"]])
    silent = decision_of(game)
    assert silent.action == {"type": "build", "player": ANN, "colour": "red", "size": 3}
    assert decision_of(game, [say(game.view_for(BOB), Signal("build", RED))]) == silent


def test_no_signal_keeps_the_crew_from_a_launch():
    """Ann holds the last suit of the launch sequence: whatever Bob says, she launches."""
    game = table(
        rocket=[("red", 3), ("yellow", 2), ("blue", 2)],
        builders=[BOB, ANN, BOB],
        sequence=["2H", "2S", "2D"],
        sequence_by=[BOB, BOB, ANN],
        hands=[["9C", "3H"], ["8D", "7S"]],
    )
    silent = decision_of(game)
    assert silent.reason == "launch_complete"
    for signal in offered(game.view_for(BOB)):
        assert decision_of(game, [say(game.view_for(BOB), signal)]) == silent, signal.code


def test_the_crew_does_not_scrap_when_a_person_asks_it_not_to():
    hands = [["9C"], ["8D", "7S", "2D"]]
    game = table(rocket=[("green", 2), ("red", 1)], builders=[ANN, ANN], hands=hands)
    assert decide(game.view_for(ANN), 60).action["type"] == "scrap"
    for signal in (Signal("dont_scrap"), Signal("launch_next")):
        heard = say(game.view_for(BOB), signal)
        told = decide(game.view_for(ANN), 60, said=[heard])
        assert told.action == {"type": "draw", "player": ANN}
        assert told.reason == "draw_heed" and told.params == {"player": BOB, "signal": signal.code}
    # a signal no longer standing is not heeded
    stale = Said(BOB, Signal("dont_scrap"), game.turn - 1)
    assert decide(game.view_for(ANN), 60, said=[stale]).action["type"] == "scrap"


def test_a_crewmate_says_the_next_section_of_its_plan():
    game = table(hands=[["7H", "8H", "9H", "2S", "3S"], []])
    decision = decision_of(game)
    assert decision.action["colour"] == "red"
    said = says(decision)
    rest = [p for p, b in zip(decision.plan.pieces, decision.plan.built, strict=True) if not b]
    largest = max((p for p in rest if p != decision.plan.section), key=lambda p: p[1])
    assert said == Signal("build", Colour(largest[0]))


def test_an_all_crew_team_plays_exactly_as_it_would_in_silence(monkeypatch):
    """Crewmates hear no crewmate: the same seeds give the same games, talking or not."""
    talking = [record(crew_policy, n, "basic", seed, 300) for seed in range(4) for n in (2, 3)]
    assert any(said for said in _said_in(crew_policy, 2, 0))  # they do talk
    monkeypatch.setattr(simulate, "_tell", lambda *args: None)
    silent = [record(crew_policy, n, "basic", seed, 300) for seed in range(4) for n in (2, 3)]
    assert talking == silent


def _said_in(policy, players: int, seed: int) -> list[Said]:
    """Every signal a game's seats gave, as `record` kept them."""
    kept: list[Said] = []
    tell = simulate._tell

    def spy(game, player, signal, said):
        tell(game, player, signal, said)
        if player in said:
            kept.append(said[player])

    simulate._tell = spy
    try:
        record(policy, players, "basic", seed, 300)
    finally:
        simulate._tell = tell
    return kept


def test_a_style_that_says_its_plan_plays_as_its_silent_twin():
    for seed in range(3):
        silent = record([POLICIES["builder"]] * 2, 2, "basic", seed, 300)
        saying = record([POLICIES["builder_says"]] * 2, 2, "basic", seed, 300)
        assert silent == saying
