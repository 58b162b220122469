"""The balance lab: how often a team wins Apophis, by rule set, difficulty and player count.

Run: .venv/bin/python benchmarks/balance_lab.py [--games N] [--pace S] [--policies ...]
 or: .venv/bin/python benchmarks/balance_lab.py --mixed [--games N] [--paces S ...]
 or: .venv/bin/python benchmarks/balance_lab.py --seating crew,standin standin,standin ...

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
from the events), and the reasons the crew gave for them (over whole games).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections import Counter
from multiprocessing import Pool

from engine import DIFFICULTY_MINUTES, MAX_PLAYERS, Outcome
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


def _seating(value: str) -> str:
    names = value.split(",")
    if not 1 <= len(names) <= MAX_PLAYERS or any(n not in POLICIES for n in names):
        raise argparse.ArgumentTypeError(
            f"{value!r}: 1 to {MAX_PLAYERS} of {', '.join(POLICIES)}, separated by commas"
        )
    return value


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Example: benchmarks/balance_lab.py --games 200 --policies crew greedy",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=250,
        help="games per rule set, player count and policy (default 250)",
    )
    parser.add_argument("--pace", type=float, default=5.0, help="seconds a turn (default 5)")
    parser.add_argument("--policies", nargs="+", choices=list(POLICIES), default=list(POLICIES))
    parser.add_argument(
        "--seating",
        nargs="+",
        type=_seating,
        help="mixed seatings instead, each a policy per seat: e.g. crew,standin standin,standin",
    )
    parser.add_argument(
        "--mixed", action="store_true", help="the standard mixed seatings (2 and 3 players)"
    )
    parser.add_argument(
        "--paces",
        nargs="+",
        type=float,
        default=[4.5, 6.0],
        help="seconds a turn, mixed seatings (default 4.5 6)",
    )
    parser.add_argument(
        "--difficulties",
        nargs="+",
        choices=list(DIFFICULTY_MINUTES),
        default=["beginner", "medium"],
        help="mixed seatings (default beginner medium)",
    )
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )
    args = parser.parse_args()
    seatings = list(args.seating or ()) + (list(MIXED) if args.mixed else [])

    started = time.perf_counter()
    if seatings:
        units = [(seating, len(seating.split(","))) for seating in dict.fromkeys(seatings)]
    else:
        units = [(policy, players) for policy in args.policies for players in PLAYERS]
    tasks = [
        (policy, rules, players, first, min(CHUNK, args.games - first))
        for policy, players in units
        for rules in RULES
        for first in range(0, args.games, CHUNK)
    ]
    results: dict[tuple[str, str, int], list[Record]] = {}
    with Pool(args.workers) as pool:
        for key, records in pool.imap_unordered(_play, tasks):
            results.setdefault(key, []).extend(records)
        pool.close()
        pool.join()  # so that the workers' CPU time is counted below
    elapsed = time.perf_counter() - started
    cpu = os.times().children_user + os.times().children_system

    if seatings:
        _print_mixed([seating for seating, _ in units], results, args)
        print(f"took {elapsed:.0f} s on {args.workers} processes ({cpu:.0f} s of CPU in all)")
        return
    print(f"{args.games} games per rule set, player count and policy, at {args.pace:g} s a turn")
    print(
        "| rules | difficulty | players | policy | win % [95% CI] | destroyed % | deflected % "
        "| lost % | s/turn at 50% |"
    )
    print("|---|---|---:|---|---|---:|---:|---:|---:|")
    for rules in RULES:
        for difficulty, minutes in DIFFICULTY_MINUTES.items():
            for players in PLAYERS:
                for policy in args.policies:
                    records = results[(policy, rules, players)]
                    print(_row(rules, difficulty, minutes, players, policy, records, args.pace))
    print(f"took {elapsed:.0f} s on {args.workers} processes ({cpu:.0f} s of CPU in all)")


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
    for players in sorted({len(s.split(",")) for s in seatings}):
        group = [s for s in seatings if len(s.split(",")) == players]
        print(f"\n{players} players: win % [95% CI]")
        print("| rules | difficulty | s/turn | " + " | ".join(map(_name, group)) + " |")
        print("|---|---|---:|" + "---|" * len(group))
        rows = [
            (rules, difficulty, pace)
            for rules in RULES
            for difficulty in args.difficulties
            for pace in args.paces
        ]
        for rules, difficulty, pace in rows:
            minutes = DIFFICULTY_MINUTES[difficulty]
            cells = []
            for seating in group:
                records = results[(seating, rules, players)]
                wins = sum(r.outcome_within(minutes, pace).won for r in records)
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
                scraps = sum(len(r.scraps_within(minutes, pace, seats)) for r in records)
                cells.append(f"{scraps / len(records):.2f}")
            print(f"| {rules} | {difficulty} {minutes} min | {pace:g} | {' | '.join(cells)} |")
        for seating in crewed:
            for rules in RULES:
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


def _name(seating: str) -> str:
    """A seating as a column heading: "crew + standin ×2"."""
    counts = Counter(seating.split(","))
    return " + ".join(f"{name} ×{n}" if n > 1 else name for name, n in counts.items())


if __name__ == "__main__":
    main()
