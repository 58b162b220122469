"""How long the crew policy takes to decide, on one core: p50, p99 and the slowest.

Run: .venv/bin/python benchmarks/crew_bench.py [--games N] [--cold] [--beside POLICY]
Plays N games (both rule sets, 1 to 4 players, a 10-minute clock at 5 s a turn) with
every seat taken by the crew policy and times each `decide` call: all of them, then
play decisions and discards (up to ten hands weighed) apart. The policy keeps a
cache of the plans it worked out; it starts empty, as in a freshly started bot, and
`--cold` empties it before every decision (the worst case: nothing ever seen before).
`--beside standin` (or another of engine.simulate's policies) seats the crew in the
first seat only, beside that policy (2 to 4 players), and times the crew alone;
`--beside all` changes the other seats' policy game by game through every one of them
(the stand-in, greedy and the people of engine.partners; random aside), so that the crew
reads teammates of every kind.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from engine import Game, Phase, Rules
from engine.crew import clear_cache, decide
from engine.simulate import POLICIES, Policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--cold", action="store_true", help="empty the plan cache each time")
    parser.add_argument(
        "--beside",
        choices=[*sorted(set(POLICIES) - {"crew"}), "all"],
        help="the other seats' policy (all: each but random in turn, game by game)",
    )
    args = parser.parse_args()
    if args.beside == "all":
        others = [POLICIES[name] for name in sorted(set(POLICIES) - {"crew", "random"})]
    else:
        others = [POLICIES[args.beside]] if args.beside else []

    clear_cache()
    timings: dict[str, list[int]] = {"play": [], "discard": []}
    started = time.perf_counter()
    for seed in range(args.games):
        # in blocks of six games, each rule set at each player count beside each policy
        other = others[seed // 6 % len(others)] if others else None
        _play(seed, other, args.cold, timings)
    total = time.perf_counter() - started
    every = sorted(timings["play"] + timings["discard"])

    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.processor() or platform.machine()}, one core"
    )
    beside = f", the crew beside {args.beside}" if args.beside else ""
    print(
        f"{len(every):,} decisions in {args.games} games ({total:.1f} s){beside}, "
        f"cache {'emptied before each' if args.cold else 'warming from empty'}"
    )
    print(f"decision time ms: {_quantiles(every)}")
    for kind, taken in timings.items():
        print(f"  {kind} ({len(taken):,}): {_quantiles(sorted(taken))}")


def _play(seed: int, other: Policy | None, cold: bool, timings: dict[str, list[int]]) -> None:
    """Play game `seed` (the crew in every seat, or in the first beside `other`) on a
    10-minute clock at 5 s a turn, each of the crew's decisions timed into `timings` by
    kind (its plan cache emptied before each when `cold`)."""
    rules = Rules.BASIC if seed % 2 else Rules.ADVANCED
    players = seed % 3 + 2 if other else seed % 4 + 1
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    crewmates = frozenset([1] if other else game.players)  # the seats the crew plays
    rng = random.Random(seed)
    elapsed, limit = 0.0, 600.0
    while (player := game.active_player) is not None:
        if game.phase is Phase.RESHUFFLE:
            game.finish_reshuffle()
            elapsed += 10
            continue
        if elapsed >= limit:
            game.clock_expired()
            break
        view = game.view_for(player)
        if other is not None and player != 1:
            game.apply(other(view, limit - elapsed, rng))
            elapsed += 5
            continue
        if cold:
            clear_cache()
        began = time.perf_counter_ns()
        decision = decide(view, limit - elapsed, crewmates=crewmates)
        took = time.perf_counter_ns() - began
        timings["discard" if game.phase is Phase.DISCARD else "play"].append(took)
        if decision is None:
            raise RuntimeError(f"the crew had no move for player {player}, whose turn it is")
        game.apply(decision.action)
        elapsed += 5


def _quantiles(timings: list[int]) -> str:
    """p50, p90, p99 and the slowest of sorted nanosecond timings, in milliseconds."""
    if not timings:
        return "none"

    def ms(q: float) -> str:
        return f"{timings[min(int(q * len(timings)), len(timings) - 1)] / 1e6:.2f}"

    return f"p50 {ms(0.5)}  p90 {ms(0.9)}  p99 {ms(0.99)}  max {timings[-1] / 1e6:.2f}"


if __name__ == "__main__":
    main()
