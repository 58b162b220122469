"""The balance lab: how often a team wins Apophis, by rule set, difficulty and player count.

Run: .venv/bin/python benchmarks/balance_lab.py [--games N] [--pace S] [--policies ...]
 or: .venv/bin/python benchmarks/balance_lab.py --mixed [--games N] [--paces S ...]
 or: .venv/bin/python benchmarks/balance_lab.py --seating crew,standin standin,standin ...
 or: .venv/bin/python benchmarks/balance_lab.py --crossplay [--games N] [--markdown]
 or: .venv/bin/python benchmarks/balance_lab.py --talk [--games N] [--markdown]

For each rule set and player count it plays N games per policy (the same seeds for
every policy), every seat taken by that policy, each game once and with no clock
(engine.simulate): a record of what it took to win answers for every clock length and
pace. At `--pace` seconds a turn (a discard or reroll decision a third of that; each
10-second reshuffle counts) it prints, per difficulty: the win rate with its 95%
confidence interval (Wilson), how the games were won (Apophis destroyed or deflected)
or lost (the clock ran out), and the seconds a turn at which the win rate falls below
50% ("-": below 50% however fast). Policies: crew (engine.crew), greedy
(engine.greedy) and random (engine.playout). The crew plays as if no clock were
running (in the bot it hurries when time is short), so its figures are if anything low.
Every core is used; the run prints how long it took, and the CPU time it spent.

Mixed seatings (`--seating`, each a comma-separated policy per seat, e.g.
`crew,standin`; `--mixed` for the standard set below) measure the crew beside
stand-ins for people: standin (engine.standin, a player that follows one sensible
rocket and never scraps) and greedy. For each player count it prints the win rate
with its 95% interval per rule set, difficulty (`--difficulties`) and pace (`--paces`),
every seating beside the others on the same seeds, then the crew's scraps of a rocket
holding a section a teammate built, per game (those before the clock ran out, read
from the events), and the reasons the crew gave for them (over whole games). With
`--crew-pace S` a crew seat's turn takes S seconds (the bot's crewmates pause 1 to 3 s,
2 on average) and the others' the pace of the row: turns go round the table, so a
game's pace is the mean of its seats'.

Cross-play (`--crossplay`) seats each partner style (`--partners`: the people of
`engine.partners`, the stand-in, greedy, and the crew itself) beside each seat-filler
(that partner's own copy, the stand-in, greedy and the crew), at 2 and 4 players
(`--players`): at 2 players the filler takes each seat in turn on the same N seeds
("each way"), at 4 players it takes seat 1 and then seat 3, the partner the other three;
a team of one style alone (its own copy) plays 2N seeds, its seats being alike. For each
player count, rule set and difficulty, at each pace (`--paces`, default 4.5 s), it prints
a table with a row per partner: the win rate with its 95% interval per filler, the crew
filler's scraps of rockets holding a teammate's section a game (before the clock ran out;
beside the crew itself, those of the whole crew team) with the reasons it gave, and a
verdict: "yes" when the crew filler wins at least as often as every other filler within
its interval (no other filler's win rate above the upper bound of the crew's interval),
else the fillers that beat it. `--markdown` prints the tables as Markdown, for
docs/crew.md.

Table talk (`--talk`) plays each seating of the crew beside a partner style that says
its plan (`<style>_says`, `--partners`; the crew takes seat 1 and then seat
`players // 2 + 1`, the style the others) and the all-crew team, each seed twice: with
the table silent (nobody's signal kept) and talking, every other thing alike. Both games
of a seed have the same deal and the same dice (`SplitDice`: the n-th die of a game is
the same whatever the moves before it, so the two games of a pair part only where what
was said changed a move). Per cell it prints the win rate silent and talking, and their
paired difference with its 95% interval (Agresti-Min, `paired`), the pairs won by one
side only, and McNemar's exact p; the verdict "yes" when the difference is at least 0.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import TypeVar

from engine import DIFFICULTY_MINUTES, MAX_PLAYERS, Outcome
from engine.partners import STYLES
from engine.rng import Random
from engine.simulate import POLICIES, Record, record

RULES = ("basic", "advanced")
PLAYERS = tuple(range(1, MAX_PLAYERS + 1))
#: A game not won within this many actions counts as lost on every clock (beginner's
#: 15 minutes at 2 s a turn).
MAX_ACTIONS = 450
#: Seeds per task sent to a worker.
CHUNK = 50
#: `--mixed`: for 2 and 3 players, the all-stand-in teams, each with a crewmate in the
#: seat of a stand-in, and the all-crew team.
MIXED = (
    "standin,standin",
    "crew,standin",
    "greedy,greedy",
    "crew,greedy",
    "crew,crew",
    "standin,standin,standin",
    "crew,standin,standin",
    "greedy,greedy,greedy",
    "crew,greedy,greedy",
    "crew,crew,crew",
)
#: `--crossplay`: the partners (rows), and the seat-fillers beside them (columns; "own":
#: a copy of that partner), each with its heading.
PARTNERS = (*STYLES, "standin", "greedy", "crew")
#: The policies a plain run seats alone by default (not the styles, silent or saying
#: their plan: `--talk` measures those, silent and talking).
ALONE = ("crew", "greedy", "random", "standin")
FILLERS = {"own": "that partner", "standin": "stand-in", "greedy": "greedy", "crew": "crew"}
#: The filler judged by the verdict, and the most scraps of teammates' sections a game
#: it should make (issue 37).
JUDGED = "crew"


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def pace_at_half(records: list[Record], minutes: float) -> float | None:
    """The seconds a turn beyond which fewer than half the games are won (None: always)."""
    paces = sorted((r.slowest_pace(minutes) for r in records), reverse=True)
    middle = paces[(len(paces) + 1) // 2 - 1]
    return middle if middle > 0 else None


def _play(task: tuple[str, str, int, int, int]) -> tuple[tuple[str, str, int], list[Record]]:
    """Play a chunk of games: `policy` names one policy for every seat, or one per seat
    separated by commas."""
    policy, rules, players, first, count = task
    seating = [POLICIES[name] for name in policy.split(",")]
    return (policy, rules, players), [
        record(seating, players, rules, seed, MAX_ACTIONS) for seed in range(first, first + count)
    ]


Task = tuple[str, str, int, int, int]
Key = tuple[str, str, int]
T = TypeVar("T")


def _run(tasks: Sequence[Task], workers: int) -> dict[Key, list[Record]]:
    """Play every task's games on `workers` processes (in this one when 1), each key's
    records in the order of the tasks."""
    return _map(_play, tasks, workers)


def _map(
    play: Callable[[Task], tuple[Key, list[T]]], tasks: Sequence[Task], workers: int
) -> dict[Key, list[T]]:
    """`play` every task on `workers` processes, each key's results in the order of the tasks."""
    if workers == 1:
        done = [play(task) for task in tasks]
    else:
        with Pool(workers) as pool:
            done = pool.map(play, tasks)
            pool.close()
            pool.join()  # so that the workers' CPU time is counted
    results: dict[Key, list[T]] = {}
    for key, records in done:
        results.setdefault(key, []).extend(records)
    return results


def _tasks(
    units: Iterable[tuple[str, int, int]], rules: Iterable[str], start: int = 0
) -> list[tuple[str, str, int, int, int]]:
    """Tasks of at most `CHUNK` seeds for each (seating, players, seeds) and rule set, the
    seeds from `start` on."""
    return [
        (seating, rule_set, players, first, min(CHUNK, start + seeds - first))
        for seating, players, seeds in units
        for rule_set in rules
        for first in range(start, start + seeds, CHUNK)
    ]


def _seating(value: str) -> str:
    names = value.split(",")
    if not 1 <= len(names) <= MAX_PLAYERS or any(n not in POLICIES for n in names):
        raise argparse.ArgumentTypeError(
            f"{value!r}: 1 to {MAX_PLAYERS} of {', '.join(POLICIES)}, separated by commas"
        )
    return value


def main() -> None:
    args = _parser().parse_args()
    seatings = list(args.seating or ()) + (list(MIXED) if args.mixed else [])

    started = time.perf_counter()
    if args.crossplay:
        _crossplay_tables(args)
    elif args.talk:
        _talk_tables(args)
    elif seatings:
        _mixed_tables(args, seatings)
    else:
        _policy_table(args)
    _took(started, args.workers)


def _parser() -> argparse.ArgumentParser:
    """The lab's command line: the games, the policies and the mixed seatings played (then
    `_crossplay_options` and `_table_options`)."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Example: benchmarks/balance_lab.py --games 200 --policies crew greedy",
    )
    parser.add_argument(
        "--games",
        type=int,
        help="games per rule set, player count and policy (default 250); "
        "--crossplay: seeds each way (default 100)",
    )
    parser.add_argument("--pace", type=float, default=5.0, help="seconds a turn (default 5)")
    parser.add_argument(
        "--policies",
        nargs="+",
        choices=list(POLICIES),
        default=[name for name in POLICIES if name in ALONE],
        help="default: " + " ".join(name for name in POLICIES if name in ALONE),
    )
    parser.add_argument(
        "--seating",
        nargs="+",
        type=_seating,
        help="mixed seatings instead, each a policy per seat: e.g. crew,standin standin,standin",
    )
    parser.add_argument(
        "--mixed", action="store_true", help="the standard mixed seatings (2 and 3 players)"
    )
    _crossplay_options(parser)
    _table_options(parser)
    return parser


def _crossplay_options(parser: argparse.ArgumentParser) -> None:
    """--crossplay, its partners (rows) and its player counts."""
    parser.add_argument(
        "--crossplay",
        action="store_true",
        help="every partner style beside every seat-filler (2 and 4 players)",
    )
    parser.add_argument(
        "--talk",
        action="store_true",
        help="the crew beside each style saying its plan, silent and talking (2 and 4 players)",
    )
    parser.add_argument(
        "--partners",
        nargs="+",
        choices=PARTNERS,
        help="--crossplay: the partners, one row each (default: all); --talk: the styles",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        type=int,
        choices=PLAYERS[1:],
        default=[2, 4],
        help="--crossplay: player counts (default 2 4)",
    )


def _table_options(parser: argparse.ArgumentParser) -> None:
    """The rule sets, paces and difficulties tabled, the tables in Markdown, the processes."""
    parser.add_argument(
        "--rules", nargs="+", choices=RULES, default=list(RULES), help="(default: both)"
    )
    parser.add_argument(
        "--paces",
        nargs="+",
        type=float,
        help="seconds a turn, mixed seatings (default 4.5 6) and --crossplay (default 4.5)",
    )
    parser.add_argument(
        "--difficulties",
        nargs="+",
        choices=list(DIFFICULTY_MINUTES),
        default=["beginner", "medium"],
        help="mixed seatings and --crossplay (default beginner medium)",
    )
    parser.add_argument(
        "--crew-pace",
        type=float,
        help="mixed seatings: seconds a crew seat's turn takes (default: the row's pace)",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="--crossplay: the tables in Markdown"
    )
    parser.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="--talk: the first seed (default 0; another range checks a rule chosen on the first)",
    )
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )


def _crossplay_tables(args: argparse.Namespace) -> None:
    """--crossplay: every partner beside every seat-filler, played and tabled."""
    games = args.games or 100
    partners = args.partners or list(PARTNERS)
    results = crossplay(partners, args.players, args.rules, games, args.workers)
    print(f"{games} seeds each way (a team of one style alone: {2 * games})")
    for line in crossplay_report(
        results,
        partners,
        args.players,
        args.rules,
        args.difficulties,
        args.paces or [4.5],
        games,
        args.markdown,
    ):
        print(line)


def _mixed_tables(args: argparse.Namespace, seatings: list[str]) -> None:
    """Mixed seatings (--seating, --mixed): played on the same seeds, and tabled."""
    games = args.games or 250
    args.paces = args.paces or [4.5, 6.0]
    units = [(seating, len(seating.split(",")), games) for seating in dict.fromkeys(seatings)]
    results = _run(_tasks(units, args.rules), args.workers)
    _print_mixed([seating for seating, _, _ in units], results, args)


def _policy_table(args: argparse.Namespace) -> None:
    """Each policy in every seat, at every player count: played and tabled, a row each."""
    games = args.games or 250
    units = [(policy, players, games) for policy in args.policies for players in PLAYERS]
    results = _run(_tasks(units, args.rules), args.workers)
    print(f"{games} games per rule set, player count and policy, at {args.pace:g} s a turn")
    print(
        "| rules | difficulty | players | policy | win % [95% CI] | destroyed % | deflected % "
        "| lost % | s/turn at 50% |"
    )
    print("|---|---|---:|---|---|---:|---:|---:|---:|")
    for rules in args.rules:
        for difficulty, minutes in DIFFICULTY_MINUTES.items():
            for players in PLAYERS:
                for policy in args.policies:
                    records = results[(policy, rules, players)]
                    print(_row(rules, difficulty, minutes, players, policy, records, args.pace))


def _took(started: float, workers: int) -> None:
    """How long the run took, and the CPU its processes spent."""
    elapsed = time.perf_counter() - started
    times = os.times()
    cpu = times.user + times.system + times.children_user + times.children_system
    print(f"took {elapsed:.0f} s on {workers} processes ({cpu:.0f} s of CPU in all)")


# ------------------------------------------------------------------ cross-play


def crossplay_seatings(partner: str, filler: str, players: int) -> list[tuple[str, int | None]]:
    """The seatings of a cross-play cell, each with the filler's seat: the filler in
    seat 1 and then in seat `players // 2 + 1` (each way, at 2 players), the partner in
    the others; one seating of the partner alone (filler's seat None) for its own copy."""
    if filler in ("own", partner):
        return [(",".join([partner] * players), None)]
    seatings: list[tuple[str, int | None]] = []
    for seat in (0, players // 2):
        names = [partner] * players
        names[seat] = filler
        seatings.append((",".join(names), seat))
    return seatings


def _seeds(seating: str, games: int) -> int:
    """Seeds a seating plays: `games` each way, twice that for a team of one policy."""
    return games if len(set(seating.split(","))) > 1 else 2 * games


def crossplay(
    partners: Sequence[str],
    players: Sequence[int],
    rules: Sequence[str],
    games: int,
    workers: int,
) -> dict[tuple[str, str, int], list[Record]]:
    """Play every seating of the cross-play table (each once, however many cells share it)."""
    units = dict.fromkeys(
        (seating, count, _seeds(seating, games))
        for partner in partners
        for filler in FILLERS
        for count in players
        for seating, _ in crossplay_seatings(partner, filler, count)
    )
    return _run(_tasks(units, rules), workers)


@dataclass
class Cell:
    """A filler's games beside one partner: wins, and its scraps of teammates' sections
    (kept for the judged filler only) by the reason it gave."""

    wins: int = 0
    games: int = 0
    scraps: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def interval(self) -> str:
        low, high = wilson(self.wins, self.games)
        return f"{100 * self.rate:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def crossplay_cells(
    results: dict[tuple[str, str, int], list[Record]],
    partner: str,
    players: int,
    rules: str,
    minutes: int,
    pace: float,
) -> dict[str, Cell]:
    """Each filler's cell beside `partner`, on a clock of `minutes` at `pace` s a turn."""
    cells = {}
    for filler in FILLERS:
        cell = Cell()
        for seating, seat in crossplay_seatings(partner, filler, players):
            for game in results[(seating, rules, players)]:
                cell.games += 1
                cell.wins += game.outcome_within(minutes, pace).won
                if filler == JUDGED:
                    seats = range(players) if seat is None else [seat]
                    for scrap in game.scraps_within(minutes, pace, seats):
                        cell.scraps[scrap.why or "none given"] += 1
        cells[filler] = cell
    return cells


def verdict(cells: dict[str, Cell], judged: str = JUDGED) -> list[str]:
    """The fillers that win more often than the judged one beyond its 95% interval (their
    win rate above its upper bound); none: it wins at least as often as every other."""
    high = wilson(cells[judged].wins, cells[judged].games)[1]
    return [name for name, cell in cells.items() if name != judged and cell.rate > high]


def crossplay_report(
    results: dict[tuple[str, str, int], list[Record]],
    partners: Sequence[str],
    players: Sequence[int],
    rules: Sequence[str],
    difficulties: Sequence[str],
    paces: Sequence[float],
    games: int,
    markdown: bool,
) -> list[str]:
    """The cross-play tables, one per player count, rule set, difficulty and pace."""
    lines: list[str] = []
    headings = ["partner \\ in the other seat", *FILLERS.values()]
    headings += [f"{JUDGED}'s scraps a game", f"{JUDGED} wins as often as any"]
    for count in players:
        for rule_set in rules:
            for difficulty in difficulties:
                minutes = DIFFICULTY_MINUTES[difficulty]
                for pace in paces:
                    title = (
                        f"{count} players, {rule_set} rules, {difficulty} ({minutes} min), "
                        f"{pace:g} s an action: win % [95% CI]"
                    )
                    rows, reasons = [], []
                    for partner in partners:
                        cells = crossplay_cells(results, partner, count, rule_set, minutes, pace)
                        judged = cells[JUDGED]
                        short = verdict(cells)
                        rows.append(
                            [
                                _partner_name(partner),
                                *(cells[f].interval() for f in FILLERS),
                                f"{sum(judged.scraps.values()) / judged.games:.2f}",
                                "yes"
                                if not short
                                else "no: "
                                + ", ".join(
                                    f"{FILLERS[f]} {100 * cells[f].rate:.1f}" for f in short
                                ),
                            ]
                        )
                        if judged.scraps:
                            said = ", ".join(
                                f"{why} {n / judged.games:.2f}"
                                for why, n in sorted(judged.scraps.items())
                            )
                            reasons.append(f"beside {_partner_name(partner)}: {said}")
                    lines += ["", f"#### {title}" if markdown else title]
                    lines += _table(headings, rows, markdown)
                    if reasons:
                        lines.append("")
                        lines.append(f"{JUDGED}'s reasons for its scraps, a game:")
                        lines += [f"- {r}" if markdown else f"  {r}" for r in reasons]
    return lines


def _partner_name(partner: str) -> str:
    return "stand-in" if partner == "standin" else partner


def _table(headings: list[str], rows: list[list[str]], markdown: bool) -> list[str]:
    """A table as Markdown, or as plain columns (the first left-aligned, the rest right)."""
    if markdown:
        return [
            "| " + " | ".join(headings) + " |",
            "|---|" + "---|" * (len(headings) - 1),
            *("| " + " | ".join(row) + " |" for row in rows),
        ]
    widths = [max(len(r[i]) for r in [headings, *rows]) for i in range(len(headings))]
    return [
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in [headings, *rows]
    ]


def _row(
    rules: str,
    difficulty: str,
    minutes: int,
    players: int,
    policy: str,
    records: list[Record],
    pace: float,
) -> str:
    outcomes = [r.outcome_within(minutes, pace) for r in records]
    games = len(outcomes)
    destroyed = outcomes.count(Outcome.DESTROYED)
    deflected = outcomes.count(Outcome.DEFLECTED)
    low, high = wilson(destroyed + deflected, games)
    half = pace_at_half(records, minutes)

    def pc(n: int) -> str:
        return f"{100 * n / games:.1f}"

    return (
        f"| {rules} | {difficulty} {minutes} min | {players} | {policy} "
        f"| {pc(destroyed + deflected)} [{100 * low:.1f}, {100 * high:.1f}] "
        f"| {pc(destroyed)} | {pc(deflected)} | {pc(outcomes.count(Outcome.LOST))} "
        f"| {'-' if half is None else f'{half:.1f}'} |"
    )


def _print_mixed(
    seatings: list[str],
    results: dict[tuple[str, str, int], list[Record]],
    args: argparse.Namespace,
) -> None:
    """The mixed seatings' tables: win rates, then the crew's scraps of teammates'
    sections, one pair of tables per player count."""
    print(f"{args.games} games per rule set and seating (the same seeds for every seating)")
    if args.crew_pace is not None:
        print(f"a crew seat's turn takes {args.crew_pace:g} s, the others' the row's s/turn")
    for players in sorted({len(s.split(",")) for s in seatings}):
        group = [s for s in seatings if len(s.split(",")) == players]
        print(f"\n{players} players: win % [95% CI]")
        print("| rules | difficulty | s/turn | " + " | ".join(map(_name, group)) + " |")
        print("|---|---|---:|" + "---|" * len(group))
        rows = [
            (rules, difficulty, pace)
            for rules in args.rules
            for difficulty in args.difficulties
            for pace in args.paces
        ]
        for rules, difficulty, pace in rows:
            minutes = DIFFICULTY_MINUTES[difficulty]
            cells = []
            for seating in group:
                records = results[(seating, rules, players)]
                paced = seating_pace(seating, pace, args.crew_pace)
                wins = sum(r.outcome_within(minutes, paced).won for r in records)
                low, high = wilson(wins, len(records))
                cells.append(f"{100 * wins / len(records):.1f} [{100 * low:.1f}, {100 * high:.1f}]")
            print(f"| {rules} | {difficulty} {minutes} min | {pace:g} | {' | '.join(cells)} |")
        crewed = [s for s in group if "crew" in s.split(",") and players > 1]
        if not crewed:
            continue
        print(f"\n{players} players: crew scraps of a rocket holding a teammate's section, a game")
        print("| rules | difficulty | s/turn | " + " | ".join(map(_name, crewed)) + " |")
        print("|---|---|---:|" + "---:|" * len(crewed))
        for rules, difficulty, pace in rows:
            minutes = DIFFICULTY_MINUTES[difficulty]
            cells = []
            for seating in crewed:
                records = results[(seating, rules, players)]
                seats = [i for i, name in enumerate(seating.split(",")) if name == "crew"]
                paced = seating_pace(seating, pace, args.crew_pace)
                scraps = sum(len(r.scraps_within(minutes, paced, seats)) for r in records)
                cells.append(f"{scraps / len(records):.2f}")
            print(f"| {rules} | {difficulty} {minutes} min | {pace:g} | {' | '.join(cells)} |")
        for seating in crewed:
            for rules in args.rules:
                records = results[(seating, rules, players)]
                seats = [i for i, name in enumerate(seating.split(",")) if name == "crew"]
                reasons = Counter(
                    s.why or "none given" for r in records for s in r.scraps if s.seat in seats
                )
                if reasons:
                    said = ", ".join(
                        f"{why} {n / len(records):.2f}" for why, n in sorted(reasons.items())
                    )
                    print(f"reasons given, {_name(seating)}, {rules}, whole games: {said}")


def seating_pace(seating: str, pace: float, crew_pace: float | None) -> float:
    """A seating's seconds a turn: the mean of its seats', a crew seat's `crew_pace` (when
    given) and every other's `pace` (turns go round the table)."""
    seats = seating.split(",")
    if crew_pace is None:
        return pace
    return sum(crew_pace if name == "crew" else pace for name in seats) / len(seats)


def _name(seating: str) -> str:
    """A seating as a column heading: "crew + standin ×2"."""
    counts = Counter(seating.split(","))
    return " + ".join(f"{name} ×{n}" if n > 1 else name for name, n in counts.items())


# ------------------------------------------------------------------ table talk

#: Mixed into a seed for the stream of a game's dice (`SplitDice`).
DICE_STREAM = 0x5DEECE66D


class SplitDice(Random):
    """A game's randomness with its dice apart: the shuffles and the start player from
    one stream, the dice from another, both from the seed, so that the n-th die of a game
    is the same whatever was shuffled before it (common random numbers for paired games)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.dice = Random(seed ^ DICE_STREAM)

    def d6(self) -> int:
        return self.dice.d6()


def talk_seatings(partner: str, players: int) -> list[str]:
    """The seatings of a table-talk row: the crew in seat 1, then in seat `players // 2 +
    1`, beside the style saying its plan; one all-crew seating for the crew."""
    if partner == JUDGED:
        return [",".join([JUDGED] * players)]
    return [seating for seating, _ in crossplay_seatings(f"{partner}_says", JUDGED, players)]


def _pair(task: Task) -> tuple[Key, list[tuple[Record, Record]]]:
    """Play a chunk of seeds twice each, the table silent and then talking, on the same
    deal and dice."""
    policy, rules, players, first, count = task
    seating = [POLICIES[name] for name in policy.split(",")]

    def game(seed: int, talk: bool) -> Record:
        return record(seating, players, rules, seed, MAX_ACTIONS, SplitDice(seed), talk)

    seeds = range(first, first + count)
    return (policy, rules, players), [(game(seed, False), game(seed, True)) for seed in seeds]


def table_talk(
    partners: Sequence[str],
    players: Sequence[int],
    rules: Sequence[str],
    games: int,
    workers: int,
    first_seed: int = 0,
) -> dict[Key, list[tuple[Record, Record]]]:
    """Play every table-talk seating, `games` seeds each from `first_seed`, silent and
    talking."""
    units = [
        (seating, count, games)
        for partner in partners
        for count in players
        for seating in talk_seatings(partner, count)
    ]
    return _map(_pair, _tasks(units, rules, first_seed), workers)


def paired(gained: int, lost: int, pairs: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of the difference of two matched proportions (Agresti-Min: half a
    pair added to each of the four outcomes), from the pairs won by the second side only
    (`gained`) and by the first only (`lost`)."""
    n = pairs + 2
    more, fewer = gained + 0.5, lost + 0.5
    centre = (more - fewer) / n
    spread = z * math.sqrt(max(more + fewer - (more - fewer) ** 2 / n, 0.0)) / n
    return max(centre - spread, -1.0), min(centre + spread, 1.0)


def mcnemar(gained: int, lost: int) -> float:
    """McNemar's exact two-sided p: the chance of pairs as lopsided, each discordant pair
    going either way alike."""
    split = gained + lost
    tail = sum(math.comb(split, k) for k in range(min(gained, lost) + 1)) / 2**split
    return min(1.0, 2 * tail)


@dataclass
class Pairs:
    """A table-talk cell: the pairs of games, those won silent and talking, and those won
    by one side only."""

    pairs: int = 0
    silent: int = 0
    talking: int = 0
    gained: int = 0  # won talking, lost silent
    lost: int = 0  # won silent, lost talking

    def add(self, silent: bool, talking: bool) -> None:
        self.pairs += 1
        self.silent += silent
        self.talking += talking
        self.gained += talking and not silent
        self.lost += silent and not talking

    def join(self, other: Pairs) -> None:
        """Count `other`'s pairs in too (a partner's cells summed)."""
        self.pairs += other.pairs
        self.silent += other.silent
        self.talking += other.talking
        self.gained += other.gained
        self.lost += other.lost

    def row(self) -> list[str]:
        """Its figures as table cells (percentages, the interval in points)."""
        low, high = paired(self.gained, self.lost, self.pairs)
        return [
            str(self.pairs),
            f"{100 * self.silent / self.pairs:.1f}",
            f"{100 * self.talking / self.pairs:.1f}",
            f"{100 * (self.talking - self.silent) / self.pairs:+.1f} "
            f"[{100 * low:+.1f}, {100 * high:+.1f}]",
            f"{self.gained} / {self.lost}",
            f"{mcnemar(self.gained, self.lost):.2f}",
            "yes" if self.talking >= self.silent else "no",
        ]


def talk_cell(
    results: dict[Key, list[tuple[Record, Record]]],
    partner: str,
    players: int,
    rules: str,
    minutes: int,
    pace: float,
) -> Pairs:
    """The pairs of a partner's row, on a clock of `minutes` at `pace` s a turn."""
    cell = Pairs()
    for seating in talk_seatings(partner, players):
        for silent, talking in results[(seating, rules, players)]:
            cell.add(
                silent.outcome_within(minutes, pace).won, talking.outcome_within(minutes, pace).won
            )
    return cell


TALK_HEADINGS = [
    "players",
    "rules",
    "difficulty",
    "partner",
    "pairs",
    "silent win %",
    "talking win %",
    "difference, points [95% CI]",
    "won talking only / silent only",
    "McNemar p",
    "at least as often",
]


def talk_report(
    results: dict[Key, list[tuple[Record, Record]]],
    partners: Sequence[str],
    players: Sequence[int],
    rules: Sequence[str],
    difficulties: Sequence[str],
    pace: float,
    markdown: bool,
) -> list[str]:
    """The table-talk table at `pace` s a turn, a row per cell, and how many fall short;
    then each partner at each difficulty, its cells summed (games of their own: a
    difficulty is the same games on another clock)."""
    rows: list[list[str]] = []
    each = {(difficulty, partner): Pairs() for difficulty in difficulties for partner in partners}
    for count in players:
        for rule_set in rules:
            for difficulty in difficulties:
                for partner in partners:
                    minutes = DIFFICULTY_MINUTES[difficulty]
                    cell = talk_cell(results, partner, count, rule_set, minutes, pace)
                    each[difficulty, partner].join(cell)
                    rows.append([str(count), rule_set, difficulty, _partner_name(partner)])
                    rows[-1] += cell.row()
    short = [row for row in rows if row[-1] == "no"]
    totals = [
        [level, _partner_name(partner), *cell.row()] for (level, partner), cell in each.items()
    ]
    below = [row for row in totals if row[-1] == "no"]
    return [
        f"{pace:g} s a turn: the crew's win % beside each partner, the table silent and talking",
        *_table(TALK_HEADINGS, rows, markdown),
        f"cells below silent: {len(short)} of {len(rows)}",
        "",
        "beside each partner at each difficulty, its cells above summed",
        *_table(TALK_HEADINGS[2:], totals, markdown),
        f"partners below silent: {len(below)} of {len(totals)}",
    ]


def _talk_tables(args: argparse.Namespace) -> None:
    """--talk: the crew beside each style saying its plan, and the all-crew team, played
    silent and talking, and tabled."""
    games = args.games or 200
    partners = args.partners or [*STYLES, JUDGED]
    start = args.first_seed
    results = table_talk(partners, args.players, args.rules, games, args.workers, start)
    print(
        f"{games} seeds a seating ({start} to {start + games - 1}), each played silent and "
        "talking (the same deal and dice)"
    )
    for pace in args.paces or [4.5]:
        print()
        for line in talk_report(
            results, partners, args.players, args.rules, args.difficulties, pace, args.markdown
        ):
            print(line)


if __name__ == "__main__":
    main()
