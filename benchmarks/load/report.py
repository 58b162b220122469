"""The report: its sections, printed as they come and kept for the results file."""

from __future__ import annotations

import platform
from pathlib import Path

from benchmarks.load.figures import (
    CLASS_HEADER,
    HEADER,
    SUBHEADER,
    WEB_HEADER,
    WEB_SUBHEADER,
    class_row,
    median_ms,
    p99_ms,
    row,
    seconds_of,
    web_row,
)
from benchmarks.load.machine import commit, machine
from benchmarks.load.model import CHANNEL, GROUP_DM, NO_BOT_SERVER, StepResult

#: The preamble's words for each --place.
PLACE_TEXT = {
    CHANNEL: "channel: a server's channel, the bot a member (everyone has the commands)",
    GROUP_DM: "group-dm: a group DM of the four, the host's user install; the bot no member "
    "(join and every move by buttons, no hand DMs, no turn pings)",
    NO_BOT_SERVER: "no-bot-server: a server without the bot, the host's user install "
    "(join and every move by buttons, no hand DMs, no turn pings)",
}


class Report:
    """Lines said (printed now) or kept (only for the results file)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)

    def keep(self, line: str) -> None:
        self.lines.append(line)

    def write(self, target: Path) -> None:
        target.write_text("\n".join(self.lines) + "\n")


def preamble(report: Report, args, stamp) -> None:
    """When, on what, at which commit, and the load and the bot measured."""
    say = report.say
    say(f"Apophis bot load benchmark — {stamp:%Y-%m-%d %H:%M %Z}")
    say(f"machine: {machine()}; Python {platform.python_version()}")
    say(f"commit: {commit()}")
    say(
        f"load: 4-player games, think {args.think:g} s (x0.5-1.5), {args.duration:g} s measured "
        f"per step after {args.warmup:g} s warm-up; {args.command_share:.0%} slash commands, "
        f"{args.hand_share:.0%} hand looks, {args.short_games:.0%} 1-5 minute games, "
        f"{args.chat:g} chat messages a team a minute; "
        f"time scale {args.time_scale:g}; board pictures {args.pictures}; outbox pacing "
        + ("45/s (as in production)" if args.global_rate <= 50 else "lifted (demand measured)")
        + (
            f"; live table: {args.web_clients} web sockets a game (signed in as its players, "
            f"compression {args.web_compression}"
            + (", each on a process that does not own its game)" if args.web_across else ")")
            if args.web_clients
            else "; no live table (web server off)"
        )
    )
    say(f"place: {PLACE_TEXT[args.place]}")
    say(
        f"bot: {args.processes} process{'es' if args.processes > 1 else ''} on "
        + ("SQLite" if args.database == "sqlite" else "PostgreSQL (a throwaway local server)")
    )
    say()


def load_heading(report: Report) -> None:
    """The open-loop load's table heading (its rows are printed as each step ends)."""
    say = report.say
    say("Open-loop load (latencies from dispatch by the fake; first response = the bot's")
    say("answer to the interaction; last message = the last board edit, panel or DM showing")
    say("a hand it changed)")
    say(HEADER)
    say(SUBHEADER)


def load_tables(report: Report, results: list[StepResult], notes: list[str]) -> None:
    """The steps' rows (kept), then what players wait for, the live table, routes, notes."""
    for r in results:
        report.keep(row(r))
    for r in results:
        s = r.sample
        if s.unfinished:
            report.keep(
                f"  G={r.games}: {len(s.unfinished)} actions still missing a message "
                f"after the grace period (counted in last-message max)"
            )
    wait_table(report, results)
    class_table(report, results)
    if any(r.web is not None for r in results):
        web_table(report, results)
    for r in results:
        top = sorted(r.routes.items(), key=lambda kv: -kv[1])
        report.say(
            f"  G={r.games:,}: {r.sample.actions:,} actions, {r.sample.interactions:,} "
            f"interactions, {r.sample.refused + r.sample.stale} stale/refused; worst second "
            f"{r.worst_second} global requests; global requests by route: "
            + ", ".join(f"{k} {v}" for k, v in top)
        )
    for note in notes:
        report.say("  " + note)
    report.say()


def wait_table(report: Report, results: list[StepResult]) -> None:
    """What players wait for: the board, their hands, and the updates' way out."""
    say = report.say
    say("What players wait for (board: dispatch to the board showing the action; hand: to")
    say("each hand it changed shown, in the player's panel or DM; updates: board edits,")
    say("posts, pings, reports and panel")
    say("refreshes, and how many went through the global budget rather than a token)")
    say(
        f"{'games':>6} | {'board ms p50':>12} {'p99':>7} | {'hand s p50':>10} {'p99':>7} "
        f"{'max':>7} | {'updates':>8} {'via budget':>10} | {'interactions/action':>19}"
    )
    for r in results:
        s = r.sample
        share = r.budget_updates / r.updates if r.updates else float("nan")
        say(
            f"{r.games:>6,} | {median_ms(s.board):>12} {p99_ms(s.board):>7} | "
            f"{seconds_of(s.dm_lag, 0.5):>10} {seconds_of(s.dm_lag, 0.99):>7} "
            f"{seconds_of(s.dm_lag, 1.0):>7} | {r.updates:>8,} {share:>10.2%} | "
            f"{s.interactions / s.actions if s.actions else float('nan'):>19.2f}"
        )


def class_table(report: Report, results: list[StepResult]) -> None:
    """Requests per action by route class, and the token answers Discord refused."""
    say = report.say
    say("Requests per action by route class (every request of the window over the actions")
    say("applied: interaction callbacks, @original edits, follow-ups, follow-up edits and")
    say("deletions, other token requests, the place's channel routes, hand DMs, the rest),")
    say("and the token answers refused: 40094 over the follow-up cap, 401 expired, 404 unknown")
    say(CLASS_HEADER)
    for r in results:
        say(class_row(r))


def web_table(report: Report, results: list[StepResult]) -> None:
    """The live table's rows (--web-clients)."""
    say = report.say
    say("The live table (--web-clients): from an action's dispatch to each socket of its")
    say("game receiving a state at least that new (every (action, socket) pair), states")
    say("received, and the bot's CPU per action (compare with a run of --web-clients 0)")
    say(WEB_HEADER)
    say(WEB_SUBHEADER)
    for r in results:
        if r.web is not None:
            say(web_row(r))


def recovery_heading(report: Report) -> None:
    report.say("Start-up recovery (stored active 4-player games; outbox paced at 45/s)")
    report.say(f"{'games':>7} {'to resumed s':>13} {'to IDENTIFY s':>14} {'RSS MB':>8}")


def recovery_row(report: Report, r: dict[str, float]) -> None:
    report.say(
        f"{r['games']:>7,} {r['resumed']:>13.2f} {r['identified']:>14.2f} {r['rss_mb']:>8.1f}"
    )


def recovery_end(report: Report, recovered: list[dict[str, float]]) -> None:
    """Memory per resumed game, from the first and last counts."""
    if len(recovered) >= 2:
        a, b = recovered[0], recovered[-1]
        per = (b["rss_mb"] - a["rss_mb"]) * 1024 / (b["games"] - a["games"])
        report.say(f"  memory per resumed game (RSS difference): {per:.1f} KB")
    report.say()


def engine_line(report: Report, actions: int, rate: float) -> None:
    report.say(
        f"Engine alone (one core): {rate:,.0f} actions/s applied with an orjson save "
        f"({actions:,} actions of 300 4-player games)"
    )
