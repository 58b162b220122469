"""The balance lab's cross-play (benchmarks/balance_lab.py --crossplay): its seatings, its
cells (the crew filler's scraps counted in its own seat only, before the clock ran out),
its verdict, and a small run printed as Markdown and as plain columns; its table talk
(--talk): pairs of games on the same deal and dice, and their paired difference."""

from __future__ import annotations

from benchmarks.balance_lab import (
    FILLERS,
    Cell,
    Pairs,
    SplitDice,
    crossplay,
    crossplay_cells,
    crossplay_report,
    crossplay_seatings,
    mcnemar,
    paired,
    table_talk,
    talk_report,
    talk_seatings,
    verdict,
)
from engine import Outcome
from engine.simulate import POLICIES, Record, Scrap, record


def test_the_filler_sits_each_way_and_a_style_alone_once():
    assert crossplay_seatings("planner", "crew", 2) == [("crew,planner", 0), ("planner,crew", 1)]
    assert crossplay_seatings("planner", "crew", 4) == [
        ("crew,planner,planner,planner", 0),
        ("planner,planner,crew,planner", 2),
    ]
    assert crossplay_seatings("planner", "own", 2) == [("planner,planner", None)]
    assert crossplay_seatings("standin", "standin", 4) == [
        ("standin,standin,standin,standin", None)
    ]


def test_the_crews_scraps_are_counted_in_its_seat_before_the_clock_ran_out():
    """Every game (one won, one not): a scrap by seat 1 early, one by seat 2 early, one by
    seat 1 after the 15 minutes. Beside the planner the crew sits in seat 1 one way and
    seat 2 the other, so each way counts one scrap; in an all-crew team every seat's."""
    scraps = (
        Scrap(0, "scrap_no_fuel", 10, 0, 0),
        Scrap(1, "scrap_sequence_dead", 20, 0, 0),
        Scrap(0, "scrap_no_warhead", 1000, 0, 0),  # 75 minutes in at 4.5 s
    )
    won = Record(Outcome.DESTROYED, 100, 0, 0, scraps)
    lost = Record(None, 450, 0, 0, scraps)
    results = {}
    for partner in ("planner", "crew"):
        for filler in FILLERS:
            for seating, _ in crossplay_seatings(partner, filler, 2):
                results[(seating, "basic", 2)] = [won, lost]
    cells = crossplay_cells(results, "planner", 2, "basic", 15, 4.5)
    played = {f: (c.wins, c.games) for f, c in cells.items()}
    assert played == {"own": (1, 2), "standin": (2, 4), "greedy": (2, 4), "crew": (2, 4)}
    assert cells["crew"].scraps == {"scrap_no_fuel": 2, "scrap_sequence_dead": 2}
    assert not cells["standin"].scraps  # only the judged filler's are kept
    alone = crossplay_cells(results, "crew", 2, "basic", 15, 4.5)["crew"]
    assert alone.scraps == {"scrap_no_fuel": 2, "scrap_sequence_dead": 2}
    assert alone.games == 2  # the all-crew team: one seating


def test_the_verdict_names_the_fillers_that_beat_the_crew_beyond_its_interval():
    cells = {
        "own": Cell(50, 100),
        "standin": Cell(40, 100),
        "greedy": Cell(10, 100),
        "crew": Cell(30, 100),  # 95% interval [21.9, 39.6]
    }
    assert verdict(cells) == ["own", "standin"]
    cells["crew"] = Cell(45, 100)  # [35.6, 54.8]: below the own copy, within the interval
    assert verdict(cells) == []
    cells["greedy"] = Cell(56, 100)
    assert verdict(cells) == ["greedy"]


def test_a_small_cross_play_run_prints_a_table_per_setting():
    partners = ["planner", "crew"]
    results = crossplay(partners, [2], ["basic"], 1, workers=1)
    assert len(results[("planner,planner", "basic", 2)]) == 2  # a style alone: 2N seeds
    assert len(results[("crew,planner", "basic", 2)]) == 1
    markdown = crossplay_report(
        results, partners, [2], ["basic"], ["beginner", "medium"], [4.5], 1, True
    )
    titles = [line for line in markdown if line.startswith("#### ")]
    assert titles == [
        "#### 2 players, basic rules, beginner (15 min), 4.5 s an action: win % [95% CI]",
        "#### 2 players, basic rules, medium (10 min), 4.5 s an action: win % [95% CI]",
    ]
    start = markdown.index(titles[0])
    heading, rule, *rows = markdown[start + 1 : start + 5]
    assert heading == (
        "| partner \\ in the other seat | that partner | stand-in | greedy | crew "
        "| crew's scraps a game | crew wins as often as any |"
    )
    assert rule == "|---|---|---|---|---|---|---|"
    assert [row.split(" | ")[0] for row in rows] == ["| planner", "| crew"]
    for row in rows:
        cells = row.strip("| ").split(" | ")
        assert len(cells) == 7 and all("[" in cell for cell in cells[1:5])
        assert cells[6] == "yes" or cells[6].startswith("no: ")
    plain = crossplay_report(results, partners, [2], ["basic"], ["beginner"], [4.5], 1, False)
    table = plain[plain.index(titles[0][5:]) + 1 :][:3]
    assert table[0].split("  ")[0] == "partner \\ in the other seat"
    assert table[1].startswith("planner ") and table[2].startswith("crew ")
    assert len({len(line) for line in table}) == 1  # columns aligned, the last to the right


def test_the_dice_of_a_split_game_do_not_depend_on_its_shuffles():
    one, other = SplitDice(7), SplitDice(7)
    other.shuffle(list(range(30)))  # a reshuffle the other game did not have
    assert [one.d6() for _ in range(20)] == [other.d6() for _ in range(20)]
    cards = list(range(10))
    one.shuffle(cards)
    assert cards != list(range(10))  # the shuffles still shuffle


def test_a_silent_table_keeps_no_signal_and_the_crew_then_plays_as_it_does_alone():
    seating = [POLICIES["crew"], POLICIES["builder_says"]]
    silent = [record(seating, 2, "basic", s, 300, SplitDice(s), talk=False) for s in range(6)]
    deaf = [POLICIES["crew"], POLICIES["builder"]]
    assert silent == [record(deaf, 2, "basic", s, 300, SplitDice(s)) for s in range(6)]


def test_the_paired_interval_and_mcnemar():
    low, high = paired(0, 0, 400)  # no pair won by one side only
    assert low < 0 < high and abs(low + high) < 1e-9
    low, high = paired(30, 10, 400)
    assert 0 < low < 20 / 400 < high
    assert mcnemar(0, 0) == 1.0
    assert mcnemar(10, 10) == 1.0
    assert abs(mcnemar(9, 1) - 2 * 11 / 1024) < 1e-12  # P(X <= 1), X ~ Bin(10, 1/2), twice
    cell = Pairs()
    for silent, talking in [(True, True), (False, True), (True, False), (False, True)]:
        cell.add(silent, talking)
    assert (cell.pairs, cell.silent, cell.talking, cell.gained, cell.lost) == (4, 2, 3, 2, 1)
    assert cell.row()[3].startswith("+25.0 [") and cell.row()[-1] == "yes"


def test_a_small_table_talk_run_pairs_each_seed_silent_and_talking():
    assert talk_seatings("planner", 2) == ["crew,planner_says", "planner_says,crew"]
    assert talk_seatings("crew", 4) == ["crew,crew,crew,crew"]
    results = table_talk(["planner", "crew"], [2], ["basic"], 2, workers=1)
    assert len(results[("crew,planner_says", "basic", 2)]) == 2
    (silent, talking), _ = results[("crew,crew", "basic", 2)]
    assert silent == talking  # crewmates heed no crewmate
    lines = talk_report(results, ["planner", "crew"], [2], ["basic"], ["beginner"], 4.5, True)
    assert lines[1].startswith("| players | rules | difficulty | partner | pairs |")
    assert [line.split(" | ")[3] for line in lines[3:5]] == ["planner", "crew"]
    short = next(i for i, line in enumerate(lines) if line.startswith("cells below silent: "))
    assert lines[short + 2] == "beside each partner at each difficulty, its cells above summed"
    assert lines[short + 3].startswith("| difficulty | partner | pairs |")
    totals = [line.split(" | ") for line in lines[short + 5 : short + 7]]
    assert [row[1] for row in totals] == ["planner", "crew"]
    for row, cell in zip(totals, lines[3:5], strict=True):  # one cell each: the same figures
        assert row[2:] == cell.split(" | ")[4:]
    assert lines[-1].startswith("partners below silent: ")
