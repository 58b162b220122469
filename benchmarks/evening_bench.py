"""A scripted evening of friends' games on the fake Discord, and what each person lived through.

Each game is a whole demo game (devtools.demo: the real bot in its own process, people
played by automatic players through slash commands and buttons) at Discord's pace: a
person thinks about `--move-seconds` game seconds before each move. The figures are
the ones issue 48 asks for: pings per person per game, clicks per move, messages left in
the channel, DMs per person, private "panel moved" stubs, and how the games ended.

    .venv/bin/python benchmarks/evening_bench.py                 # the evening below
    .venv/bin/python benchmarks/evening_bench.py --difficulty beginner --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devtools.demo.run import Options, Outcome, play

#: The evening: (people, crewmates, language, rules), in the order a group of friends
#: would play them (two arrive first, a third joins, then a crewmate fills the fourth seat).
EVENING = (
    (("Ada", "Brahim"), 0, "en", "basic"),
    (("Ada", "Brahim", "Chloé"), 0, "fr", "basic"),
    (("Ada", "Brahim", "Chloé"), 1, "en", "basic"),
    (("Ada", "Brahim", "Chloé", "Dmitri"), 0, "fr", "basic"),
    (("Ada", "Brahim"), 1, "fr", "advanced"),
    (("Ada", "Brahim", "Chloé"), 0, "en", "advanced"),
)
#: The stub a typed command used to leave on an older panel, in both languages.
MOVED_STUBS = ("This panel moved", "Ce panneau a été remplacé")


@dataclass
class Game:
    """One game's figures."""

    people: int
    outcome: str
    pings: int
    clicks: int
    moves: int
    messages_left: int
    dms: int
    stubs: int


def figures(outcome: Outcome, people: int) -> Game:
    rec = outcome.record
    stubs = sum(
        1
        for stream in rec.private.values()
        for shown in stream
        if hasattr(shown, "text") and any(stub in shown.text() for stub in MOVED_STUBS)
    )
    return Game(
        people=people,
        outcome=outcome.outcome or outcome.status,
        pings=rec.pings,
        clicks=sum(rec.clicks().values()),
        moves=outcome.actions,
        messages_left=rec.public_messages,
        dms=sum(len(rec.dms(name)) for name in rec.private),
        stubs=stubs,
    )


async def evening(args: argparse.Namespace) -> list[Game]:
    games = []
    out = Path(tempfile.mkdtemp(prefix="apophis-evening-"))
    for number, (people, crewmates, language, rules) in enumerate(EVENING[: args.games]):
        options = Options(
            people=people,
            crewmates=crewmates,
            language=language,
            rules=rules,
            difficulty=args.difficulty,
            seed=args.seed + number,
            time_scale=args.time_scale,
            think=args.move_seconds / args.time_scale,
            out=out / f"game-{number + 1}",
        )
        outcome = await play(options)
        game = figures(outcome, len(people))
        games.append(game)
        print(
            f"game {number + 1}: {len(people)} people + {crewmates} crewmate(s), {language}, "
            f"{rules}: {game.outcome}; pings {game.pings}, clicks {game.clicks} for "
            f"{game.moves} moves, {game.messages_left} messages left, {game.dms} DMs, "
            f"{game.stubs} 'panel moved' stubs  ({outcome.page})",
            flush=True,
        )
    return games


def report(games: list[Game], args: argparse.Namespace) -> None:
    people = sum(g.people for g in games)
    moves = sum(g.moves for g in games)
    ends = Counter(g.outcome for g in games)
    print(
        f"\n{len(games)} games at {args.difficulty}, a move about every {args.move_seconds:g} "
        f"game seconds (time scale {args.time_scale:g})"
    )
    print(f"pings per person per game: {sum(g.pings for g in games) / people:.2f}")
    print(f"clicks per move: {sum(g.clicks for g in games) / max(moves, 1):.2f}")
    left = statistics.mean(g.messages_left for g in games)
    print(f"messages left in the channel per game: {left:.1f}")
    print(f"DMs per person per game: {sum(g.dms for g in games) / people:.2f}")
    print(f"'panel moved' stubs per game: {statistics.mean(g.stubs for g in games):.1f}")
    print("ends: " + ", ".join(f"{name} {count}" for name, count in sorted(ends.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=len(EVENING), help="how many of the evening's games"
    )
    parser.add_argument(
        "--difficulty", default="medium", choices=("beginner", "easy", "medium", "hard")
    )
    parser.add_argument(
        "--move-seconds", type=float, default=10.0, help="game seconds a person thinks"
    )
    parser.add_argument("--time-scale", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report(asyncio.run(evening(args)), args)


if __name__ == "__main__":
    main()
