"""`make demo`: watch a whole game of the real bot without a Discord application.

python -m devtools.demo [--people Ada,Brahim] [--crewmates 2] [--rules advanced] [--seed 7] [--open]
python -m devtools.demo --web [--web-port 8750] [--web-wait 5] [--linger 60]: watch it live
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import webbrowser
from pathlib import Path

from bot.i18n.catalogs import languages, t
from devtools.demo import web
from devtools.demo.run import NAMES, Options, play
from engine import DIFFICULTY_MINUTES, MAX_PLAYERS


def parse_args(argv: list[str] | None = None) -> Options:
    """The demo's options from the command line (argparse's errors say what is wrong)."""
    parser = _parser()
    args = parser.parse_args(argv)
    people = _people(parser, args)
    if args.time_scale is None:
        args.time_scale = web.TIME_SCALE if args.web else 30.0
    if args.think is None:
        args.think = web.THINK if args.web else Options.think
    if args.seed < 0 or not 0 < args.time_scale <= 1000:
        parser.error("--seed must be 0 or more, --time-scale between 0 and 1000")
    if not 0 <= args.think <= 60 or args.web_wait < 0 or (args.linger or 0) < 0:
        parser.error("--think takes 0 to 60 seconds; --web-wait and --linger 0 or more")
    if not 1 <= args.web_port <= 65535:
        parser.error("--web-port takes a port number, 1 to 65535")
    if args.linger is None:
        args.linger = None if sys.stdin.isatty() else 0.0
    options = Options(
        people=people,
        crewmates=args.crewmates,
        language=args.language,
        rules=args.rules,
        difficulty=args.difficulty,
        seed=args.seed,
        time_scale=args.time_scale,
        think=args.think,
        out=args.out,
        web=args.web,
        web_port=args.web_port,
        web_wait=args.web_wait,
        linger=args.linger,
        open=args.open,
    )
    return options


def _parser() -> argparse.ArgumentParser:
    """The demo's command line: the game, the page, and the live table's options."""
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
        "--time-scale",
        type=float,
        help=f"how much faster the countdown runs (default 30; {web.TIME_SCALE:g} with --web)",
    )
    parser.add_argument(
        "--think",
        type=float,
        help="seconds a person thinks before each move, spread 0.5x to 1.5x "
        f"(default {Options.think:g}; {web.THINK:g} with --web)",
    )
    parser.add_argument("--out", type=Path, default=Path("demo"), help="where the page goes")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    _live_table_options(parser)
    return parser


def _live_table_options(parser: argparse.ArgumentParser) -> None:
    """--web and what goes with it: the live table, served as the game is played."""
    live = parser.add_argument_group(
        "the live table",
        "--web serves the game as the bot's web table as it is played, and opens it in the "
        "default browser (signing in with Discord there signs in as the first person)",
    )
    live.add_argument("--web", action="store_true", help="watch the game live in a browser")
    live.add_argument("--web-port", type=int, default=web.PORT, help="its port (%(default)s)")
    live.add_argument(
        "--web-wait",
        type=float,
        default=5.0,
        help="seconds the table is shown before the host starts (%(default)s)",
    )
    live.add_argument(
        "--linger",
        type=float,
        help="seconds the final table stays served after the game (default: until Enter or "
        "Ctrl-C in a terminal, else 0)",
    )


def _people(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[str, ...]:
    """The people's names (--people), checked against the AI crewmates' seats; the default
    names leave seats to the crewmates."""
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
    return people


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    began = time.monotonic()
    try:
        result = asyncio.run(play(options))
    except web.PortTaken as exc:
        print(f"make demo: {exc}", file=sys.stderr)
        return 2
    seconds = time.monotonic() - began - result.lingered
    language = options.language
    print(t(language, "demo.cli.done", count=result.actions, seconds=f"{seconds:.0f}"))
    for line in result.summary:
        print(f"  {line}")
    print(t(language, "demo.cli.page", path=result.page.resolve()))
    if result.table_url:
        print(t(language, "demo.cli.table_was", url=result.table_url))
    if options.open:
        webbrowser.open(result.page.resolve().as_uri())
    return 0


if __name__ == "__main__":
    sys.exit(main())
