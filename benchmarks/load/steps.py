"""The load steps: the bot started, each step's games opened and a window measured, in turn."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.load import database
from benchmarks.load.bots import NO_OPENAPI, BotProcess, Bots, runqueue_wait, shard_settings
from benchmarks.load.database import new_database, server_cpu
from benchmarks.load.figures import print_verbose, row, step_notes, stop_note
from benchmarks.load.model import Reading, Sample, StepResult
from benchmarks.load.players import Load, chatter
from benchmarks.load.routes import by_class, refused, watch_token_answers
from benchmarks.web_clients import WebClients, bot_settings
from devtools.fakediscord import FakeDiscord
from devtools.fakediscord.state import ChannelType
from devtools.livetable import free_port

#: A generation-2 threshold that the generator never reaches (it collects between steps).
NO_FULL_COLLECTION = 1_000_000_000


def updates_in(fake: FakeDiscord, records) -> tuple[int, int, int]:
    """(global requests for boards/posts/pings/reports, all such updates, DM requests).

    Updates are what the outbox sends to the game's channel: through an interaction's
    token (edits, follow-ups, deletions: free) or through the channel routes (global).
    """
    budget = tokens = dms = 0
    for r in records:
        if r.counts_global:
            parts = r.path.split("/")
            channel = fake.world.channels.get(int(parts[4])) if "/channels/" in r.path else None
            if r.route.startswith("POST /users/@me/channels") or (
                channel is not None and channel.type is ChannelType.DM
            ):
                dms += 1
            elif channel is not None:
                budget += 1
        elif "/webhooks/" in r.path:
            tokens += 1
    return budget, budget + tokens, dms


async def run_load(args) -> tuple[list[StepResult], list[str]]:
    """The open-loop load, step by step: each step's result (its row printed as it ends),
    and the notes."""
    notes: list[str] = []
    options: dict[str, Any] = {"keep_history": False}  # earlier versions of edited messages
    if not args.validate:
        options["openapi_path"] = NO_OPENAPI
    fake = FakeDiscord(**options)
    refusals = watch_token_answers(fake)
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="apophis-bench-"))
    database_url = new_database(args, workdir)
    load = Load(fake, args, database_url)
    load.refusals = refusals
    load.build_world(max(args.steps))
    # With --web-clients, each process serves its shard's games' live table on a port.
    ports = [free_port() for _ in range(args.processes)] if args.web_clients else []
    bot = Bots(bot_processes(fake, database_url, workdir, args, ports))
    await asyncio.gather(*(b.start() for b in bot.processes))
    results: list[StepResult] = []
    try:
        began = await ready(load, bot, args)
        await load.open_db()
        start_upkeep(load, args, ports)
        idle_rss = bot.rss_kb()
        notes.append(
            f"bot ready (answering) {time.monotonic() - began:.1f} s after start, "
            f"{len(load.tabs):,} places ({args.place}); idle RSS {idle_rss / 1024:.1f} MB"
        )
        running = 0
        for games in args.steps:
            await open_tables(load, args, ports, running, games)
            running = games
            result = await run_step(load, bot, args, games, idle_rss, notes)
            results.append(result)
            stop = stop_note(args, games, result.sample)
            if stop is not None:
                notes.append(stop)
                break
    finally:
        await shut_down(load, bot, notes)
    return results, notes


def bot_processes(
    fake: FakeDiscord, database_url: str, workdir: Path, args, ports: list[int]
) -> list[BotProcess]:
    """The bot's --processes, process k running shard k (and its live table on ports[k])."""
    return [
        BotProcess(
            fake,
            database_url,
            workdir,
            log_level="WARNING",
            args=args,
            settings={
                **shard_settings(args, k),
                **(bot_settings(ports[k], fake.world.application_id) if ports else {}),
            },
        )
        for k in range(args.processes)
    ]


async def ready(load: Load, bot: Bots, args) -> float:
    """Wait until the bot answers; the time the wait began."""
    fake = load.fake
    # Ready when it answers: the probe is retried until the bot has the guilds.
    began = time.monotonic()
    while True:
        if bot.exited():
            raise RuntimeError("a bot process exited:\n" + "\n".join(bot.lines))
        # Every shard connected (a process runs one a thousand guilds, each logging in
        # 5 s after the last; a group DM's interactions go to shard 0), and a table of
        # each process answers.
        connected = all(
            fake.gateway.session_for(tab.guild.id if tab.guild else None) for tab in load.tabs
        )
        if connected and fake.world.global_commands:
            probes = [
                await fake.invoke("apophis rules", user=tab.members[0].user, channel=tab.channel)
                for tab in load.tabs[: args.processes]
            ]
            answered = [await load.answered(probe, "probe") for probe in probes]
            if all(answered):
                return began
        await asyncio.sleep(0.5)
        if time.monotonic() - began > 120:
            raise RuntimeError("the bot did not answer within 120 s")


def start_upkeep(load: Load, args, ports: list[int]) -> None:
    """The sockets (--web-clients), the generator's watches, pruning and the teams' chat."""
    if ports:
        load.web = WebClients(args.web_clients, compress=args.web_compression == "on")
    load.tasks.append(asyncio.create_task(load.watch_lag()))
    load.tasks.append(asyncio.create_task(load.keep_pruning()))
    if args.chat:
        load.tasks.append(asyncio.create_task(chatter(load, args.chat)))
    load.watch_gc()
    # The generator's own full collections, over all the fake's state, took hundreds of
    # milliseconds and froze the clock that timestamps the bot's answers (bursts of
    # "slow" answers that the bot had sent in time). So the generator collects fully
    # only between steps, and what is alive then is frozen out of later collections.
    gc.set_threshold(*gc.get_threshold()[:2], NO_FULL_COLLECTION)


async def open_tables(load: Load, args, ports: list[int], running: int, games: int) -> None:
    """The step's new tables start playing (their sockets opened first, --web-clients)."""
    if load.web is not None:  # the new games' sockets, open before they play
        across = 1 if args.web_across else 0  # (a socket on a process not its game's owner)
        await load.web.connect(
            [
                (
                    tab.index,
                    f"http://localhost:{ports[(tab.index + across) % args.processes]}",
                    tab.channel.id,
                    [(m.user.id, m.user.name) for m in tab.members],
                )
                for tab in load.tabs[running:games]
            ]
        )
    gc.collect()
    gc.freeze()
    for tab in load.tabs[running:games]:
        delay = random.uniform(0, args.ramp)
        load.tasks.append(asyncio.create_task(load.play(tab, delay)))
    load.playing = games


async def settle(load: Load, args, games: int) -> None:
    """The ramp, then the tables settled, then the warm-up."""
    await asyncio.sleep(args.ramp)
    # Settle: every table has a game and every player has had their hand by DM
    # (the first DMs open DM channels: a one-off burst that is not the steady state;
    # where the bot is no member there are no DMs).
    settle_until = time.monotonic() + args.ramp + 120
    players = [m.user.id for t in load.tabs[:games] for m in t.members] if load.bot_member else []
    while time.monotonic() < settle_until:
        started = sum(1 for t in load.tabs[:games] if t.started)
        dealt = sum(1 for user in players if user in load.last_dm)
        if started >= games and dealt >= len(players):
            break
        await asyncio.sleep(0.5)
    load.fake.requests.clear()
    load.refusals.clear()
    await asyncio.sleep(args.warmup)


async def run_step(load: Load, bot: Bots, args, games: int, idle_rss: int, notes: list[str]):
    """One step of `games` tables (already playing): its window measured, its row printed."""
    await settle(load, args, games)
    sample = load.window = Sample()
    start = time.monotonic()
    load.window_span = (start, start + args.duration)
    if load.web is not None:
        load.web.begin(start, start + args.duration)
    if args.verbose:  # e.g. to point a profiler at the bot for the window
        print(f"  G={games:,}: measuring for {args.duration:.0f} s", flush=True)
    drawing, web = await counters(load, bot, args)  # asked before the CPU is read
    before = Reading(*clocks(bot), drawing, web)
    await asyncio.sleep(args.duration)
    end = time.monotonic()
    cpu = clocks(bot)
    drawing, web = await counters(load, bot, args)  # and after it
    after = Reading(*cpu, drawing, web)
    rss = bot.rss_kb()
    await finish(load, sample, args, games, (start, end))
    readings, memory = (before, after), (rss, idle_rss)
    result, requests = step_result(load, games, sample, (start, end), readings, memory)
    print(row(result), flush=True)
    if result.web is not None:
        print(f"  web (G={games:,}): {result.web.summary()}", flush=True)
    server = database.SERVER is not None
    notes.extend(step_notes(result, before, after, requests, args, server))
    if args.verbose:
        print_verbose(sample, result.routes, start, bot.lines)
    return result


def clocks(bot: Bots) -> tuple[float, float, float, tuple[float, float]]:
    """CPU seconds of the bot, the generator and the database server; waits for a CPU."""
    cpu, gen, db = bot.cpu(), time.process_time(), server_cpu()
    return cpu, gen, db, (bot.runqueue_wait(), runqueue_wait(os.getpid()))


async def counters(load: Load, bot: Bots, args) -> tuple[float, list[float] | None]:
    """What the bot counts itself: its pictures' CPU, the live table's (asked by signal)."""
    drawing = await bot.picture_cpu() if args.pictures == "on" else 0.0
    web = await bot.web_cpu() if load.web is not None else None
    return drawing, web


async def finish(load: Load, sample: Sample, args, games: int, span: tuple[float, float]) -> None:
    """Let actions of the window finish their messages (board edit, DMs), then close it."""
    start, end = span
    grace = time.monotonic() + args.grace
    while time.monotonic() < grace:
        await asyncio.sleep(0.25)
        if not any(p.t0 < end for t in load.tabs[:games] for p in t.pending):
            break
    if load.web is not None:  # and the states they make to reach every socket
        while time.monotonic() < grace and load.web.owed():
            await asyncio.sleep(0.25)
    load.window = None
    for tab in load.tabs[:games]:
        sample.unfinished += [end - p.t0 for p in tab.pending if start <= p.t0 < end]


def worst_second(moments: list[float]) -> int:
    """The most of `moments` (sorted) in any window of one second."""
    most, first = 0, 0
    for last, moment in enumerate(moments):
        while moment - moments[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


def step_result(load: Load, games: int, sample: Sample, span, readings, memory):
    """The step's figures, and the window's requests: `span` (start, end), `readings`
    (before, after), `memory` the bot's RSS after the window and idle, in KB."""
    fake, (start, end), (before, after), (rss, idle_rss) = load.fake, span, readings, memory
    window = [r for r in fake.requests if start <= r.at < end]
    inside = [r for r in window if r.counts_global]
    budget_updates, updates, _ = updates_in(fake, window)
    routes: dict[str, int] = {}
    for r in inside:
        routes[r.route] = routes.get(r.route, 0) + 1
    fake.requests.clear()
    refusals = refused(load.refusals, start, end)
    load.refusals.clear()
    seconds = end - start
    result = StepResult(
        games,
        seconds,
        sample,
        (after.bot_cpu - before.bot_cpu) / seconds,
        (after.gen_cpu - before.gen_cpu) / seconds,
        rss / 1024,
        (rss - idle_rss) / games,
        len(inside),
        routes,
        budget_updates,
        updates,
        load.web.end() if load.web is not None else None,
        by_class(fake, window),
        refusals,
        worst_second(sorted(r.at for r in inside)),
    )
    return result, window


async def shut_down(load: Load, bot: Bots, notes: list[str]) -> None:
    """Stop the players, the sockets, the bot and the fake; note what went wrong."""
    fake = load.fake
    load.running = False
    for task in load.tasks:
        task.cancel()
    await asyncio.gather(*load.tasks, return_exceptions=True)
    if load.web is not None:
        await load.web.close()
    errors = bot.errors()
    await asyncio.gather(*(b.stop() for b in bot.processes))
    await load.close_db()
    await fake.stop()
    if errors:
        notes.append(f"bot logged {len(errors)} error lines, e.g. {errors[0][:200]}")
    if fake.violations:
        kinds = sorted({str(v.kind) for v in fake.violations})
        notes.append(
            f"fake recorded {len(fake.violations)} violations: {kinds}; "
            f"first: {str(fake.violations[0])[:300]}"
        )
