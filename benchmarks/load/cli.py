"""The command line: the options of benchmarks/load_bench.py, and the run in its order."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from benchmarks import floor_bench
from benchmarks.load import database
from benchmarks.load.engine_alone import run_engine
from benchmarks.load.machine import ROOT
from benchmarks.load.model import CHANNEL, PLACES, StepResult
from benchmarks.load.recovery import run_recovery
from benchmarks.load.report import (
    Report,
    engine_line,
    load_heading,
    load_tables,
    preamble,
    recovery_end,
    recovery_heading,
    recovery_row,
)
from benchmarks.load.steps import run_load
from bot.app import on_fast_loop
from devtools.pgserver import PostgresServer, unavailable_reason

#: --help's description (the first line of benchmarks/load_bench.py's docstring).
DESCRIPTION = (
    "Load benchmark of the whole bot: concurrent games, latency, CPU, memory, Discord budget."
)
RESULTS = ROOT / "benchmarks" / "results"


def parse_args(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    add_step_options(parser)
    add_bot_options(parser)
    add_player_options(parser)
    add_run_options(parser)
    add_web_options(parser)
    args = parser.parse_args(argv)
    args.steps = [int(s) for s in args.steps.split(",") if s]
    args.recovery = [int(s) for s in args.recovery.split(",") if s]
    if args.web_clients < 0:
        parser.error("--web-clients is a number of sockets per game (0: none)")
    if args.processes < 1 or (args.processes > 1 and args.database != "postgresql"):
        parser.error("--processes above 1 needs --database postgresql (SQLite is one process's)")
    return args


def add_step_options(parser: argparse.ArgumentParser) -> None:
    """The steps of concurrent games, and their measured windows."""
    parser.add_argument(
        "--steps",
        default="100,500,1000,2500,5000",
        help="concurrent games per step, comma-separated",
    )
    parser.add_argument("--think", type=float, default=5.0, help="mean think time, seconds")
    parser.add_argument("--duration", type=float, default=45.0, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to open new games over")
    parser.add_argument(
        "--grace", type=float, default=15.0, help="seconds to wait for a window's last messages"
    )


def add_bot_options(parser: argparse.ArgumentParser) -> None:
    """The bot's clocks, its outbox's pacing, its pictures."""
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="APOPHIS_TIME_SCALE of the bot (clocks and reshuffles)",
    )
    parser.add_argument(
        "--global-rate",
        type=float,
        default=1e6,
        help="outbox pacing in requests/s, over all processes (45 or less: the bot's own "
        "pacing, its share in each process)",
    )
    parser.add_argument(
        "--pictures",
        choices=("on", "off"),
        default="on",
        help="board pictures (off: every server as if /apophis config turned them off)",
    )


def add_player_options(parser: argparse.ArgumentParser) -> None:
    """How the players act: slash commands, hand looks, short games."""
    parser.add_argument(
        "--command-share",
        type=float,
        default=0.15,
        help="share of actions made by slash command rather than the board",
    )
    parser.add_argument(
        "--hand-share",
        type=float,
        default=0.05,
        help="share of turns that begin by looking at the hand (/hand, My hand)",
    )
    parser.add_argument(
        "--short-games",
        type=float,
        default=0.2,
        help="share of games opened with a short countdown (1 to 5 minutes)",
    )


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The bot's database and processes, the teams' chat, when to stop, what runs."""
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="the bot's database: an SQLite file, or a throwaway PostgreSQL server",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes sharing the database, one shard each (needs postgresql for > 1)",
    )
    parser.add_argument(
        "--chat",
        type=float,
        default=2.0,
        help="messages a minute each team posts in its channel (the bot counts them)",
    )
    parser.add_argument("--setup-concurrency", type=int, default=100)
    parser.add_argument(
        "--stop-p99",
        type=float,
        default=0.1,
        help="stop stepping once the p99 first response passes this (s)",
    )
    parser.add_argument("--all-steps", action="store_true", help="do not stop at the goal")
    parser.add_argument(
        "--place",
        choices=PLACES,
        default=CHANNEL,
        help="where the games are played: a server channel the bot is in; a group DM of the "
        "four (the host installed the app); a server without the bot (the host's user "
        "install). In the last two only the host has the commands: the others join and "
        "everyone plays by buttons",
    )
    parser.add_argument("--recovery", default="1000,10000", help="stored games to recover")
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument(
        "--skip-engine", action="store_true", help="skip the engine alone (about 20 s)"
    )
    parser.add_argument(
        "--validate",
        action="store_true",
        help="validate request bodies against the OpenAPI file (slow)",
    )


def add_web_options(parser: argparse.ArgumentParser) -> None:
    """The live table's sockets (--web-clients), the results file, --verbose."""
    parser.add_argument(
        "--web-clients",
        type=int,
        default=0,
        help="WebSockets per game at the bot's live table, socket k signed in as player k "
        "(0: no web server)",
    )
    parser.add_argument(
        "--web-across",
        action="store_true",
        help="with --processes above 1, each game's sockets reach a process that does not "
        "own it (the next one): the cross-process fan-out (LISTEN/NOTIFY, bot.game.mirrors)",
    )
    parser.add_argument(
        "--web-compression",
        choices=("on", "off"),
        default="on",
        help="the web sockets offer permessage-deflate, as browsers do (off: plain frames)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also time the floor (benchmarks/floor_bench.py) at the last step's places and "
        "interactions a second, and give the bot's CPU per action as a multiple of it",
    )
    parser.add_argument("--output", type=Path, default=None, help="results file")
    parser.add_argument("--verbose", action="store_true")


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.database == "postgresql":
        reason = unavailable_reason()
        if reason is not None:
            sys.exit(f"load_bench: cannot run on PostgreSQL: {reason}")
        database.SERVER = PostgresServer().start()
    try:
        measure(args)
    finally:
        if database.SERVER is not None:
            database.SERVER.stop()


def floor_line(report: Report, step: StepResult, args) -> None:
    """The floor at `step`'s places, chat and interactions a second, and the bot's CPU per
    action as a multiple of it."""
    rate = step.sample.interactions / step.seconds
    floor = on_fast_loop(
        floor_bench.measure(
            argparse.Namespace(places=step.games, rate=rate, duration=args.duration, chat=args.chat)
        )
    )
    bot_ms = 1000 * step.bot_cpu * step.seconds / max(step.sample.actions, 1)
    per_interaction = bot_ms * step.sample.actions / max(step.sample.interactions, 1)
    report.say(
        f"Floor (benchmarks/floor_bench.py: discord.py and aiohttp alone, one callback and one "
        f"edit an interaction, {step.games:,} places, {floor['rate']:.0f} interactions a second): "
        f"{floor['cpu_ms']:.2f} ms CPU an interaction, first response p50 {floor['p50']:.1f} ms, "
        f"p99 {floor['p99']:.1f} ms. The bot's CPU per action, {bot_ms:.2f} ms, is "
        f"{bot_ms / floor['cpu_ms']:.1f} times the floor ({per_interaction / floor['cpu_ms']:.1f} "
        "times per interaction)."
    )
    report.say()


def measure(args) -> None:
    """Every part of the benchmark, printed and written to benchmarks/results/."""
    report = Report()
    stamp = datetime.datetime.now().astimezone()
    preamble(report, args, stamp)
    if not args.skip_load and args.steps:
        load_heading(report)
        results, notes = on_fast_loop(run_load(args))
        load_tables(report, results, notes)
        if args.floor and results:
            floor_line(report, results[-1], args)
    if args.recovery:
        recovery_heading(report)
        recovered = []
        for count in args.recovery:
            r = on_fast_loop(run_recovery(args, count))
            recovered.append(r)
            recovery_row(report, r)
        recovery_end(report, recovered)
    if not args.skip_engine:
        actions, rate = run_engine()
        engine_line(report, actions, rate)
    RESULTS.mkdir(exist_ok=True)
    target = args.output or RESULTS / f"load-{stamp:%Y%m%d-%H%M%S}.txt"
    report.write(target)
    print(f"\nwritten to {target}")
