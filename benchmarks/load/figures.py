"""A step's figures as text: the table rows, the notes, and --verbose's account of a window."""

from __future__ import annotations

import statistics

from benchmarks.load.model import SLOW, Reading, Sample, StepResult
from benchmarks.load.routes import CLASSES, FOLLOW_UP_CAP

#: Lines of the bot's diagnostics (bench-stall: only with BENCH_STALL_STACKS=1).
BOT_DIAGNOSTICS = ("bench-gc", "bench-stall")


def stalls(slow: list[tuple[float, float]], origin: float) -> str:
    """How first responses over SLOW cluster: a few bursts are stalls, a spread is a queue.
    Each of the largest bursts is shown as (count, worst ms, seconds into the window)."""
    if not slow:
        return f"no first response over {SLOW * 1000:.0f} ms"
    slow.sort()
    bursts: list[list[tuple[float, float]]] = [[slow[0]]]
    for at, latency in slow[1:]:
        previous_at, previous_latency = bursts[-1][-1]
        if at <= previous_at + previous_latency:
            bursts[-1].append((at, latency))
        else:
            bursts.append([(at, latency)])
    biggest = sorted(bursts, key=len, reverse=True)[:5]
    return (
        f"{len(slow)} first responses over {SLOW * 1000:.0f} ms in {len(bursts)} bursts; "
        "largest (count, worst ms, at s): "
        + ", ".join(
            f"({len(b)}, {max(x[1] for x in b) * 1000:.0f}, {b[0][0] - origin:.1f})"
            for b in biggest
        )
    )


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f}" if values else "-"


def p99_ms(values: list[float]) -> str:
    return f"{percentile(values, 0.99) * 1000:.0f}" if values else "-"


def seconds_of(values: list[float], q: float) -> str:
    return f"{percentile(values, q):.2f}" if values else "-"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


HEADER = (
    f"{'games':>6} {'act/s':>7} {'int/s':>7} | {'first response ms':^20} | "
    f"{'last message ms':^22} | {'>3s':>4} | {'bot CPU':>7} {'RSS MB':>7} {'KB/game':>7} | "
    f"{'global req/s':>12} {'/action':>7} | {'generator':^14}"
)
SUBHEADER = (
    f"{'':>6} {'':>7} {'':>7} | {'p50':>6} {'p99':>6} {'max':>6} | "
    f"{'p50':>6} {'p99':>6} {'max':>8} | {'':>4} | {'':>7} {'':>7} {'':>7} | "
    f"{'':>12} {'':>7} | {'CPU':>6} {'lag p99':>7}"
)


def row(r: StepResult) -> str:
    s = r.sample
    ms = 1000

    def fmt(v: float, width: int = 6) -> str:
        return f"{v * ms:>{width}.1f}" if v == v else f"{'-':>{width}}"

    last_max = max(s.last + s.unfinished) if (s.last or s.unfinished) else float("nan")
    per_action = r.global_requests / s.actions if s.actions else float("nan")
    return (
        f"{r.games:>6,} {s.actions / r.seconds:>7.1f} {s.interactions / r.seconds:>7.1f} | "
        f"{fmt(statistics.median(s.first) if s.first else float('nan'))} "
        f"{fmt(percentile(s.first, 0.99))} {fmt(max(s.first) if s.first else float('nan'))} | "
        f"{fmt(statistics.median(s.last) if s.last else float('nan'))} "
        f"{fmt(percentile(s.last, 0.99))} {fmt(last_max, 8)} | {s.failed:>4} | "
        f"{r.bot_cpu * 100:>6.0f}% {r.rss_mb:>7.1f} {r.kb_per_game:>7.1f} | "
        f"{r.global_requests / r.seconds:>12.1f} {per_action:>7.2f} | "
        f"{r.gen_cpu * 100:>5.0f}% {fmt(percentile(s.lag, 0.99), 7)}"
    )


WEB_HEADER = (
    f"{'games':>6} {'sockets':>8} | {'delivery to every socket ms':^26} | {'pairs':>8} "
    f"{'missing':>7} | {'states/s':>9} {'/socket':>7} {'KB each':>7} | {'bot CPU':>7} "
    f"{'ms/action':>9}"
)
WEB_SUBHEADER = (
    f"{'':>6} {'':>8} | {'p50':>8} {'p99':>8} {'max':>8} | {'':>8} {'':>7} | {'':>9} {'':>7} "
    f"{'':>7} | {'':>7} {'':>9}"
)


def web_row(r: StepResult) -> str:
    """The live table's figures of a step (--web-clients), and the bot's CPU per action."""
    w = r.web
    assert w is not None

    def ms(v: float) -> str:
        return f"{v * 1000:>8.1f}" if v == v else f"{'-':>8}"

    median = statistics.median(w.delays) if w.delays else float("nan")
    top = max(w.delays) if w.delays else float("nan")
    per_action = r.bot_cpu * r.seconds / r.sample.actions * 1000 if r.sample.actions else 0.0
    return (
        f"{r.games:>6,} {w.sockets:>8,} | {ms(median)} {ms(w.percentile(0.99))} {ms(top)} | "
        f"{len(w.delays):>8,} {w.missing:>7,} | {w.states / w.seconds:>9.1f} "
        f"{w.states / w.seconds / max(w.sockets, 1):>7.2f} "
        f"{w.chars / max(w.states, 1) / 1024:>7.1f} | {r.bot_cpu * 100:>6.0f}% "
        f"{per_action:>9.2f}"
    )


#: The route-class table's columns: (heading, its classes in benchmarks/load/routes.py).
CLASS_COLUMNS = (
    ("callbacks", CLASSES[0:1]),
    ("@original", CLASSES[1:2]),
    ("follow-ups", CLASSES[2:3]),
    ("fu edit/del", CLASSES[3:4]),
    ("other token", CLASSES[4:5]),
    ("channel", CLASSES[5:6]),
    ("DMs", CLASSES[6:7]),
    ("other", CLASSES[7:8]),
    ("all", CLASSES),
)
CLASS_HEADER = (
    f"{'games':>6} | "
    + " ".join(f"{heading:>{max(len(heading), 6)}}" for heading, _ in CLASS_COLUMNS)
    + f" | {'40094':>5} {'401':>5} {'404':>5} {'other':>5}"
)


def refusal_counts(r: StepResult) -> tuple[int, int, int, int]:
    """The window's token answers refused: over the follow-up cap, 401, 404, any other."""
    cap = r.refused.get((400, FOLLOW_UP_CAP), 0)
    expired = sum(n for (status, _), n in r.refused.items() if status == 401)
    unknown = sum(n for (status, _), n in r.refused.items() if status == 404)
    return cap, expired, unknown, sum(r.refused.values()) - cap - expired - unknown


def class_row(r: StepResult) -> str:
    """A step's requests per applied action by route class, and the token answers refused."""
    actions = max(r.sample.actions, 1)
    cells = " ".join(
        f"{sum(r.classes.get(c, 0) for c in classes) / actions:>{max(len(heading), 6)}.2f}"
        for heading, classes in CLASS_COLUMNS
    )
    refusals = " ".join(f"{n:>5,}" for n in refusal_counts(r))
    return f"{r.games:>6,} | {cells} | {refusals}"


def class_note(r: StepResult) -> str:
    """The window's requests by route class as counts, and each refusal's status and code."""
    refused = ", ".join(
        f"{status} (code {code}) {n}" for (status, code), n in sorted(r.refused.items())
    )
    return (
        f"G={r.games:,}: requests by route class: "
        + ", ".join(f"{c} {r.classes.get(c, 0)}" for c in CLASSES)
        + f" ({r.sample.actions:,} actions); token answers refused: {refused or 'none'}"
    )


def step_notes(
    r: StepResult, before: Reading, after: Reading, requests: list, args, server: bool
) -> list[str]:
    """A step's notes: waits for a CPU, the database server's CPU, the bot's CPU per action
    (pictures, the live table), requests per action by route (`requests`: the window's),
    and the moves the players did not find on their panels, if any."""
    games, seconds = r.games, r.seconds
    bot_wait, gen_wait = ((b - a) / seconds for a, b in zip(before.waits, after.waits, strict=True))
    notes = [
        f"G={games:,}: main threads runnable but waiting for a CPU: bot {bot_wait:.0%}, "
        f"generator {gen_wait:.0%} of the window (above a few %, the machine is the limit)"
    ]
    if server:
        notes.append(
            f"G={games:,}: PostgreSQL server CPU {(after.db_cpu - before.db_cpu) / seconds:.0%} "
            f"({args.processes} bot process{'es' if args.processes > 1 else ''})"
        )
    notes.append(cpu_note(r, before, after, args))
    if before.web is not None and after.web is not None:
        notes.append(web_note(r, before, after))
    every: dict[str, int] = {}
    for request in requests:
        every[request.route] = every.get(request.route, 0) + 1
    notes.append(
        f"G={games:,}: requests per action by route (all): "
        + ", ".join(
            f"{k} {v / max(r.sample.actions, 1):.2f}"
            for k, v in sorted(every.items(), key=lambda kv: -kv[1])
        )
    )
    notes.append(class_note(r))
    missing = {k: n for k, n in r.sample.kinds.items() if k.startswith("not offered: ")}
    if missing:  # the players could not find a move (the bench behind the bot's panel?)
        notes.append(
            f"G={games:,}: moves not on the player's panel (no move made that turn): "
            + ", ".join(
                f"{k.removeprefix('not offered: ')} {n}" for k, n in sorted(missing.items())
            )
        )
    return notes


def cpu_note(r: StepResult, before: Reading, after: Reading, args) -> str:
    """The bot's CPU per action, and the pictures' share of it (with pictures on)."""
    games, actions = r.games, max(r.sample.actions, 1)
    cpu, drawing = after.bot_cpu - before.bot_cpu, after.drawing - before.drawing
    return f"G={games:,}: bot CPU per action {cpu / actions * 1000:.2f} ms" + (
        f", of which pictures {drawing / actions * 1000:.3f} ms "
        f"({drawing / max(cpu, 1e-9):.1%}): at the "
        f"{games / args.think:,.0f} actions a second {games:,} games ask for "
        f"(one every {args.think:g} s), "
        f"{drawing / actions * games / args.think * 100:.1f} points "
        "of a core"
        if args.pictures == "on"
        else ""
    )


def web_note(r: StepResult, before: Reading, after: Reading) -> str:
    """The live table's CPU per action, as the bot timed it (--web-clients)."""
    if before.web is None or after.web is None:
        raise ValueError("the live table was not timed (no --web-clients)")
    games, actions = r.games, max(r.sample.actions, 1)
    spent = [b - a for a, b in zip(before.web, after.web, strict=True)]
    public, publics, private, privates, feed, feeds, frames, sent = spent
    return (
        f"G={games:,}: the live table's CPU per action (timed in the bot): its feed "
        f"{feed / actions * 1000:.3f} ms ({feeds / actions:.2f} turns), of which "
        f"public parts {public / actions * 1000:.3f} ms ({publics / actions:.2f}), "
        f"private parts {private / actions * 1000:.3f} ms ({privates / actions:.2f}); "
        f"frames compressed and written {frames / actions * 1000:.3f} ms "
        f"({sent / actions:.2f}); in all "
        f"{(feed + frames) / max(after.bot_cpu - before.bot_cpu, 1e-9):.1%}"
        " of the bot's CPU"
    )


def stop_note(args, games: int, sample: Sample) -> str | None:
    """Why the steps stop after this one (past --stop-p99, or failures), None to go on."""
    p99 = percentile(sample.first, 0.99)
    if (p99 > args.stop_p99 or sample.failed) and not args.all_steps:
        return (
            f"stopped after G={games}: p99 {p99 * 1000:.0f} ms "
            f"(goal {args.stop_p99 * 1000:.0f} ms), {sample.failed} failed"
        )
    return None


def print_verbose(sample: Sample, routes: dict[str, int], origin: float, bot_lines) -> None:
    """--verbose's account of a window (origin: its start): interactions by kind, stalls,
    the generator's lags and collections, the bot's diagnostics."""
    print("   ", sorted(sample.kinds.items()), routes, flush=True)
    print(
        "    first response p50/p99 ms by kind: "
        + ", ".join(
            f"{kind} {statistics.median(v) * 1000:.1f}/{percentile(v, 0.99) * 1000:.0f}"
            for kind, v in sorted(sample.by_kind.items())
        ),
        flush=True,
    )
    print("   ", stalls(sample.slow, origin), flush=True)
    if sample.board:
        print(
            f"    board showing the action p50/p99/max ms: "
            f"{statistics.median(sample.board) * 1000:.0f}/"
            f"{percentile(sample.board, 0.99) * 1000:.0f}/"
            f"{max(sample.board) * 1000:.0f}",
            flush=True,
        )
    print(
        f"    generator: lag max {max(sample.lag, default=0) * 1000:.0f} ms; "
        f"GC pauses >= 10 ms: {len(sample.gc_pauses)} "
        + ", ".join(f"gen{g} {t * 1000:.0f}" for g, t in sample.gc_pauses[:12])
        + "; lags over 50 ms (ms, at s): "
        + ", ".join(f"({lag * 1000:.0f}, {at - origin:.1f})" for at, lag in sample.lag_spikes[:12]),
        flush=True,
    )
    pauses = [line for line in bot_lines if line.startswith(BOT_DIAGNOSTICS)]
    print("    bot GC pauses >= 10 ms, stalls (last 200 log lines):", len(pauses))
    print("   ", "\n    ".join(pauses[-30:]), flush=True)
