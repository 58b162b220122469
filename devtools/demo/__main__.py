"""`make demo`: watch a whole game of the real bot without a Discord application.

python -m devtools.demo [--people Ada,Brahim] [--crewmates 2] [--rules advanced] [--seed 7] [--open]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import webbrowser
from pathlib import Path

from bot.i18n.catalogs import languages
from devtools.demo.run import NAMES, Options, play
from engine import DIFFICULTY_MINUTES, MAX_PLAYERS


def parse_args(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(
        prog="make demo",
        description="Play one game of Apophis on a local fake Discord, with the real bot in "
        "its own process and automatic players, and write a page showing what everyone saw.",
    )
    parser.add_argument(
        "--people",
        default=",".join(NAMES),
        help=f"the players' names, comma-separated (1 to {MAX_PLAYERS})",
    )
    parser.add_argument(
        "--crewmates",
        type=int,
        default=0,
        help="AI crewmates the host adds in the lobby (the bot plays them); "
        f"with the people, {MAX_PLAYERS} seats at most",
    )
    parser.add_argument(
        "--language",
        choices=languages(),
        default="en",
        help="everyone's Discord language and the server's",
    )
    parser.add_argument("--rules", choices=("basic", "advanced"), default="basic")
    parser.add_argument("--difficulty", choices=tuple(DIFFICULTY_MINUTES), default="easy")
    parser.add_argument("--seed", type=int, default=1, help="the same seed plays the same game")
    parser.add_argument(
        "--time-scale", type=float, default=30.0, help="how much faster the countdown runs"
    )
    parser.add_argument("--out", type=Path, default=Path("demo"), help="where the page goes")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    args = parser.parse_args(argv)
    people = tuple(name.strip() for name in args.people.split(",") if name.strip())
    if not 1 <= len(people) <= MAX_PLAYERS or len(set(people)) != len(people):
        parser.error(f"--people takes 1 to {MAX_PLAYERS} different names")
    if args.crewmates < 0:
        parser.error(f"--crewmates takes 0 to {MAX_PLAYERS - 1}")
    people = people[: MAX_PLAYERS - args.crewmates] if args.people == ",".join(NAMES) else people
    if not people or len(people) + args.crewmates > MAX_PLAYERS:
        parser.error(
            f"people and AI crewmates take {MAX_PLAYERS} seats at most, and one person at least"
        )
    if args.seed < 0 or not 0 < args.time_scale <= 1000:
        parser.error("--seed must be 0 or more, --time-scale between 0 and 1000")
    options = Options(
        people=people,
        crewmates=args.crewmates,
        language=args.language,
        rules=args.rules,
        difficulty=args.difficulty,
        seed=args.seed,
        time_scale=args.time_scale,
        out=args.out,
    )
    options.open = args.open
    return options


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    began = time.monotonic()
    result = asyncio.run(play(options))
    print(f"Apophis demo: {result.actions} moves by people in {time.monotonic() - began:.0f} s")
    for line in result.summary:
        print(f"  {line}")
    print(f"The page: {result.page.resolve()}")
    if getattr(options, "open", False):
        webbrowser.open(result.page.resolve().as_uri())
    return 0


if __name__ == "__main__":
    sys.exit(main())
