"""The balance lab: how often a team wins Apophis, by rule set, difficulty and player count.

Run: .venv/bin/python benchmarks/balance_lab.py [--games N] [--pace S] [--policies ...]

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
"""

from __future__ import annotations

import argparse
import math
import os
import time
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
    policy, rules, players, first, count = task
    return (policy, rules, players), [
        record(POLICIES[policy], players, rules, seed, MAX_ACTIONS)
        for seed in range(first, first + count)
    ]


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
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )
    args = parser.parse_args()

    started = time.perf_counter()
    tasks = [
        (policy, rules, players, first, min(CHUNK, args.games - first))
        for policy in args.policies
        for rules in RULES
        for players in PLAYERS
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


if __name__ == "__main__":
    main()
