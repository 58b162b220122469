"""The crew beside teammates of other kinds, read from the public record: it finishes a
teammate's launch that can still do something, keeps the rocket launchable before a
teammate who launches what they find, lets them choose when to launch, and leaves a
rocket that cannot score to the teammate who just added to it."""

from __future__ import annotations

from engine import Colour, Game, Size, simulate
from engine.crew import REASONS, Decision, choice, decide
from engine.crew.team import can_score, read
from engine.views import PastRocket
from tests.engine.helpers import ANN, BOB, table

R3, Y2, G2 = (Colour.RED, Size.LARGE), (Colour.YELLOW, Size.MEDIUM), (Colour.GREEN, Size.MEDIUM)
#: Bob started a launch on Ann's medium green and small blue: no fuel, no warhead.
BOB_LAUNCHED_DEAD = PastRocket(
    (G2, (Colour.BLUE, Size.SMALL)), (ANN, ANN), (BOB, BOB), scrapped_by=ANN
)
#: Bob built a medium yellow on Ann's large red: he builds on what others built.
BOB_BUILT_ON_ANNS = PastRocket((R3, Y2), (ANN, BOB), (ANN,) * 4)


def ann(game: Game, time_left: float | None = None) -> Decision:
    decision = decide(game.view_for(ANN), time_left)
    assert decision is not None and decision.reason in REASONS
    return decision


def test_a_teammates_launch_that_can_still_score_is_finished_not_scrapped():
    """Bob started the launch of a small rocket (red S on Ann's yellow M: it passes the
    fuel check), a poor one: Ann completes it, announcing the odds, rather than scrapping
    it for the large rocket her hand could start."""
    game = table(
        rocket=[("yellow", 2), ("red", 1)],
        builders=[ANN, BOB],
        sequence=["5C"],
        sequence_by=[BOB],
        hands=[["7H", "8H", "9H", "2D", "KS"], ["6H"]],
    )
    game.arrange(past_rockets=[BOB_LAUNCHED_DEAD])
    decision = ann(game)
    assert decision.reason == "launch_complete"
    assert decision.action == {"type": "launch", "player": ANN, "cards": ["7H", "2D", "KS"]}
    assert decision.notice == "launch_risky"


def test_the_rocket_is_kept_launchable_before_a_teammate_who_launches_what_he_finds():
    """Bob has started a launch on a rocket that could not score. On his medium red, Ann
    (diamonds, no spades) would add the medium blue; that would leave him a rocket that
    cannot pass the fuel check, so she draws instead. Beside a Bob who builds on what
    others build, she adds it."""
    hands = [["5D", "6D", "7D", "2C"], ["6H", "7S"]]
    wary = table(rocket=[("red", 2)], builders=[BOB], hands=hands)
    wary.arrange(past_rockets=[BOB_BUILT_ON_ANNS, BOB_LAUNCHED_DEAD])
    reading = read(wary.view_for(ANN))
    assert reading.launchers == {BOB} and reading.guarded
    decision = ann(wary)
    assert decision.action == {"type": "draw", "player": ANN}
    assert decision.reason == "draw_keep_launchable"
    assert decision.plan is not None and ("blue", 2) in decision.plan.pieces
    trusting = table(rocket=[("red", 2)], builders=[BOB], hands=hands)
    trusting.arrange(past_rockets=[BOB_BUILT_ON_ANNS])
    assert not read(trusting.view_for(ANN)).guarded
    assert ann(trusting).action == {"type": "build", "player": ANN, "colour": "blue", "size": 2}


def test_before_a_launcher_a_section_that_makes_the_rocket_score_goes_first():
    """The same Bob, and Ann holding spades too: the medium yellow, after which his
    rocket can launch."""
    game = table(rocket=[("red", 2)], builders=[BOB], hands=[["5D", "6D", "2S", "3S"], ["6H"]])
    game.arrange(past_rockets=[BOB_LAUNCHED_DEAD])
    decision = ann(game)
    assert decision.action == {"type": "build", "player": ANN, "colour": "yellow", "size": 2}
    assert can_score(game.rules, [*game.rocket, Y2])


def test_nothing_shows_yet_that_a_teammate_builds_on_others_sections():
    """Bob built the medium red, and has never built on anyone else's section: the rocket
    left to him can score, or Ann draws; once he has, she builds on his."""
    hands = [["5D", "6D", "7D", "2C"], ["6H", "7S"]]
    game = table(rocket=[("red", 2)], builders=[BOB], hands=hands)
    assert read(game.view_for(ANN)).guarded
    assert ann(game).reason == "draw_keep_launchable"


def test_a_launcher_chooses_when_to_launch_what_he_builds():
    """Bob (a launcher) built the top section of a rocket that can fly: Ann adds to it
    rather than start the launch herself; once he has launched that rocket before, she may
    start it."""
    hands = [["2C", "3H", "4D", "5S", "6S"], ["7H"]]
    game = table(rocket=[("red", 3), ("yellow", 2)], builders=[ANN, BOB], hands=hands)
    game.arrange(past_rockets=[BOB_LAUNCHED_DEAD])
    decision = ann(game)
    assert decision.action["type"] != "launch"
    sent = PastRocket((R3, Y2), (ANN, BOB), (BOB,) * 4)
    game.arrange(past_rockets=[BOB_LAUNCHED_DEAD, sent])
    assert ann(game).reason == "launch_complete"  # her hand holds the whole sequence


def test_a_rocket_that_cannot_score_is_left_to_the_teammate_who_just_added_to_it():
    """Bob's medium blue on the medium red leaves no yellow that can fuel it (only the
    small yellow fits, and small ones on top). In his turn's wake it is his to take down:
    Ann draws; if he has played since without doing so, she scraps it, saying why."""
    game = table(
        rocket=[("red", 2), ("blue", 2), ("green", 1)],
        builders=[ANN, ANN, BOB],
        hands=[["5D", "6D"], ["6H", "7S"]],
    )
    game.arrange(built_turns=[game.turn - 3, game.turn - 3, game.turn - 1])
    decision = ann(game)
    assert decision.action == {"type": "draw", "player": ANN}
    assert decision.reason == "draw_leave_scrap"
    game.arrange(built_turns=[game.turn - 5, game.turn - 5, game.turn - 3])
    decision = ann(game)
    assert decision.action == {"type": "scrap", "player": ANN}
    assert decision.notice == "scrap_no_fuel"


def test_a_launch_sequence_that_cannot_score_is_left_to_the_teammate_adding_to_it():
    """Bob started a launch on a rocket without fuel: it is his to launch (and fail) or
    take down while he is still adding to it, three rounds; then Ann scraps it, saying
    why."""
    game = table(
        rocket=[("yellow", 2), ("blue", 2)],
        builders=[BOB, ANN],
        sequence=["KC"],
        sequence_by=[BOB],
        hands=[["5D", "6H"], ["6S", "7S"]],
    )
    game.arrange(sequence_turns=[game.turn - 5])
    assert ann(game).reason == "draw_leave_scrap"
    game.arrange(sequence_turns=[game.turn - 6])
    decision = ann(game)
    assert decision.action == {"type": "scrap", "player": ANN}
    assert decision.notice == "scrap_sequence_dead"


def test_before_a_launcher_the_hand_is_kept_for_a_section_he_meets_well():
    """Bob launches what he finds, and on an empty pad he builds a medium red (his red M +
    yellow S). Ann's best plan starts with a medium green, which would leave him a rocket
    that cannot score: she may only start with the red, so when she draws two hearts she
    keeps two (she used to drop two of her three, keeping clubs for the green)."""
    game = table(
        rules="advanced", hands=[["2C", "3C", "4D", "5H", "6S"], ["9C"]], deck=["7H", "8H"]
    )
    red_m, yellow_s = (Colour.RED, Size.MEDIUM), (Colour.YELLOW, Size.SMALL)
    sent = PastRocket((red_m, yellow_s), (BOB, BOB), (BOB,) * 4)
    game.arrange(past_rockets=[BOB_LAUNCHED_DEAD, sent])
    assert ann(game).reason == "draw_keep_launchable"
    game.apply({"type": "draw", "player": ANN})
    decision = ann(game)
    assert decision.reason == "discard"
    kept = [c for c in game.hands[0] if c not in decision.action["cards"]]
    assert sum(card.endswith("H") for card in kept) >= 2  # the medium red's hearts


#: Bob built red L, yellow L, blue L and green M, and launched it: large sections first.
BOB_BUILT_BIG = PastRocket(
    (R3, (Colour.YELLOW, Size.LARGE), (Colour.BLUE, Size.LARGE), G2), (BOB,) * 4, (BOB,) * 4
)
#: Bob built red L, yellow M and blue M, and launched it: a medium where a large fitted.
BOB_BUILT_MEDIUMS = PastRocket((R3, Y2, (Colour.BLUE, Size.MEDIUM)), (BOB,) * 3, (BOB,) * 4)


def test_a_team_that_builds_large_sections_first_is_not_given_a_medium_instead():
    """An empty pad, and Ann's hand pays for no large section of her best rocket, but for
    the medium green of a nearly as good one. While nothing shows that her teammates build
    smaller sections where a large fits (nothing yet, or Bob's large ones), she draws for
    the large rather than start a rocket of mediums they cannot build large on; once Bob
    has built a medium on a large, she builds the medium green."""
    hand = ["2C", "3C", "4D", "5S"]
    for past in ([], [BOB_BUILT_BIG]):
        game = table(rules="advanced", hands=[hand, ["9C"]])
        game.arrange(past_rockets=past)
        assert read(game.view_for(ANN)).large_first
        decision = ann(game)
        assert decision.reason == "draw_for_plan"
        assert decision.plan is not None and decision.plan.pieces[0][1] == 3
    game = table(rules="advanced", hands=[hand, ["9C"]])
    game.arrange(past_rockets=[BOB_BUILT_MEDIUMS])
    assert not read(game.view_for(ANN)).large_first
    assert ann(game).action == {"type": "build", "player": ANN, "colour": "green", "size": 2}


def test_beside_a_big_builder_the_crew_builds_the_rocket_he_finished_and_launched():
    """Bob builds only large sections where they fit, and launched his red L + yellow L +
    blue L + green M: on an empty pad Ann aims at that rocket, drawing for its large
    sections, rather than build the large green of her own plan, which would take the pad
    off his."""
    hand = ["5C", "6C", "7C", "2D", "3S"]
    game = table(rules="advanced", hands=[hand, ["9C"]])
    assert ann(game).action == {"type": "build", "player": ANN, "colour": "green", "size": 3}
    game.arrange(past_rockets=[BOB_BUILT_BIG])
    reading = read(game.view_for(ANN))
    assert reading.big and reading.finished == (BOB_BUILT_BIG.rocket,)
    decision = ann(game)
    assert decision.reason == "draw_for_plan"
    assert decision.plan is not None
    assert set(decision.plan.pieces) == {("red", 3), ("yellow", 3), ("blue", 3), ("green", 2)}


def test_a_big_builders_rocket_is_not_cut_short_by_a_smaller_section():
    """Bob builds only large sections (red L, then yellow L on it) and launches a rocket
    not his as soon as it can score. Ann's hand pays for the medium red of her own plan
    (red L + yellow L + green M + red M + blue M), but the rocket it leaves, red L +
    yellow L + red M, can score: Bob would launch it as it is, a poor launch without
    guidance, so she draws, saying why. Were Bob a crewmate, she would build it."""
    game = table(
        rules="advanced",
        rocket=[("red", 3), ("yellow", 3)],
        builders=[BOB, BOB],
        hands=[["4H", "5H", "2C"], ["9C"]],
    )
    view = game.view_for(ANN)
    reading = read(view)
    assert reading.big and reading.next_person
    assert can_score(game.rules, (*game.rocket, (Colour.RED, Size.MEDIUM)))
    decision = ann(game)
    assert decision.action == {"type": "draw", "player": ANN}
    assert decision.reason == "draw_keep_big"
    assert decision.plan is not None and ("red", 2) in decision.plan.pieces
    assert "medium red" in decision.text
    decision = decide(view, crewmates={BOB})
    assert decision is not None
    assert decision.action == {"type": "build", "player": ANN, "colour": "red", "size": 2}


def test_beside_a_person_in_basic_rules_the_crew_follows_his_rocket(monkeypatch):
    """Bob built a medium red, and earlier launched his yellow M + red M + blue S. Ann's
    hand (diamonds and hearts, no spades) pays for the medium blue of a plan worth more
    than twice as much to her, but Bob is a person and the rules are basic: she follows
    his rocket, drawing for its yellow, as she would not were he a crewmate, or were the
    rules advanced (where the fail-safes and the launch roll make her own plan worth
    more than the gap between plans says), or with the crew's usual share (`FOLLOW`)."""
    bobs = PastRocket(
        ((Colour.YELLOW, Size.MEDIUM), (Colour.RED, Size.MEDIUM), (Colour.BLUE, Size.SMALL)),
        (BOB, ANN, BOB),
        (BOB, BOB, ANN, ANN),
    )
    hands = [["9D", "JH", "2D", "8D", "10H"], ["9C"]]
    blue = {"type": "build", "player": ANN, "colour": "blue", "size": 2}
    games = {}
    for rules in ("basic", "advanced"):
        games[rules] = table(rules=rules, rocket=[("red", 2)], builders=[BOB], hands=hands)
        games[rules].arrange(past_rockets=[bobs])
    view = games["basic"].view_for(ANN)
    assert read(view).people and read(view).aims == (bobs.rocket,)
    decision = ann(games["basic"])
    assert decision.action == {"type": "draw", "player": ANN}
    assert decision.reason == "draw_for_plan"
    assert decision.plan is not None
    assert decision.plan.pieces == (("red", 2), ("yellow", 2), ("blue", 1))
    assert decide(view, crewmates={BOB}).action == blue
    assert ann(games["advanced"]).action == blue
    monkeypatch.setattr(choice, "FOLLOW_PEOPLE_BASIC", choice.FOLLOW)
    assert ann(games["basic"]).action == blue


def test_following_a_persons_rocket_builds_it_and_leaves_its_launch_to_the_usual_call():
    """Bob finished and launched his green M + yellow M before, and has built it again.
    Following his rocket whatever it is worth is about building its sections: with
    nothing left to build, whether to launch it now is weighed as ever, and Ann adds the
    medium red of her own plan (the launch would deflect one time in six, damage never),
    as she would beside a crewmate."""
    bobs = PastRocket((G2, Y2), (BOB, BOB), (BOB,) * 4)
    game = table(
        rocket=[("green", 2), ("yellow", 2)],
        builders=[BOB, BOB],
        hands=[["3S", "JH", "7H", "8C", "4D"], ["9C"]],
    )
    game.arrange(past_rockets=[bobs])
    view = game.view_for(ANN)
    assert read(view).people and read(view).aims == (bobs.rocket,)
    red = {"type": "build", "player": ANN, "colour": "red", "size": 2}
    assert ann(game).action == red
    assert decide(view, crewmates={BOB}).action == red


def test_crewmates_are_not_read_as_people():
    """The seats AI crewmates play are public. Bob built only large sections and launched
    his big rocket, but Bob is a crewmate: nothing of his way is read (a team of crewmates
    plays as it always has), and Ann builds the large green of her own plan."""
    hand = ["5C", "6C", "7C", "2D", "3S"]
    game = table(rules="advanced", hands=[hand, ["9C"]])
    game.arrange(past_rockets=[BOB_BUILT_BIG])
    view = game.view_for(ANN)
    reading = read(view, crewmates={BOB})
    assert not reading.big and not reading.large_first and not reading.finished
    decision = decide(view, crewmates={BOB})
    assert decision.action == {"type": "build", "player": ANN, "colour": "green", "size": 3}


def test_a_simulated_crew_knows_the_seats_the_crew_plays(monkeypatch):
    """In the lab's games, as at a table, the crew knows which seats are crewmates: an
    all-crew team never reads a teammate's way of building, and beside a person it does."""
    seen: set[frozenset] = set()
    explained = simulate.EXPLAINED[simulate.crew_policy]

    def spy(view, time_left, rng, crewmates, said=()):
        seen.add(crewmates)
        return explained(view, time_left, rng, crewmates, said)

    monkeypatch.setitem(simulate.EXPLAINED, simulate.crew_policy, spy)
    simulate.record(simulate.crew_policy, 3, "basic", 0, 30)
    assert seen == {frozenset({1, 2, 3})}
    seen.clear()
    simulate.record([simulate.crew_policy, simulate.POLICIES["builder"]], 2, "basic", 0, 30)
    assert seen == {frozenset({1})}
