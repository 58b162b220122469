"""The real bot (`python -m bot`), as the load benchmark starts it in its own process.

Identical to `python -m bot` except for benchmark knobs. BENCH_GLOBAL_RATE, when
set, replaces the outbox's own pacing (APOPHIS_GLOBAL_RATE, 45 requests a second).
The load benchmark lifts it so that the requests the bot *wants* to send (the demand
on Discord's global limit) are measured instead of the pace of a queue; pass
`--global-rate 45` to the benchmark to see the bot paced as in production.
BENCH_PICTURES=off (the benchmark's `--pictures off`) draws no pictures, as on servers
that turned them off (every table is tracked with pictures off).
BENCH_GC_LOG, BENCH_SLOW_CALLBACKS and BENCH_STALL_STACKS switch on diagnostics (see below);
BENCH_PROFILE=<file> profiles the measured window (`profile_window`).
With pictures on, the bot's CPU spent making pictures is counted (see `count_picture_cpu`);
with the live table on (APOPHIS_WEB_PORT), so is its CPU (see `count_web_cpu`).
"""

from __future__ import annotations

import os
import sys

from bot.app import main
from bot.discord import outbox
from bot.game import tables


def instrument(owner: object, name: str, replacement: object) -> None:
    """Put `replacement` in the place of `owner.name` in this process: the bot's own code,
    wrapped for the benchmark's figures and knobs."""
    setattr(owner, name, replacement)


def log_gc_pauses() -> None:  # diagnostics for --verbose runs
    """BENCH_GC_LOG=1: print each garbage collection of 10 ms or more to stderr.

    Also, on SIGUSR1, write a census of tracked objects and of the cyclic garbage a full
    collection finds to /tmp/bench-census-<pid>.txt (how the GC pauses were diagnosed).
    """
    import gc
    import time

    began = [0.0]

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
            return
        took = time.perf_counter() - began[0]
        if took >= 0.01:
            print(
                f"bench-gc: generation {info['generation']} took {took * 1000:.0f} ms "
                f"({info['collected']} collected)",
                file=sys.stderr,
            )

    gc.callbacks.append(callback)

    def census(signum, frame) -> None:
        import collections

        objects = gc.get_objects()
        counts = collections.Counter(type(o).__qualname__ for o in objects)
        top = ", ".join(f"{name} {n}" for name, n in counts.most_common(25))
        young = collections.Counter(type(o).__qualname__ for o in gc.get_objects(generation=0))
        top += f" | young {sum(young.values())}: " + ", ".join(
            f"{name} {n}" for name, n in young.most_common(25)
        )
        del objects
        began = time.perf_counter()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        gc.set_debug(0)
        took = time.perf_counter() - began
        garbage = collections.Counter(type(o).__qualname__ for o in gc.garbage)
        top += f" | garbage {len(gc.garbage)}: " + ", ".join(
            f"{name} {n}" for name, n in garbage.most_common(40)
        )
        gc.garbage.clear()
        with open(f"/tmp/bench-census-{os.getpid()}.txt", "a") as out:
            print(
                f"full collection {took * 1000:.0f} ms, frozen {gc.get_freeze_count()}, "
                f"counts {gc.get_count()}, thresholds {gc.get_threshold()}: {top}",
                file=out,
            )

    import signal

    signal.signal(signal.SIGUSR1, census)


def count_picture_cpu() -> None:
    """Count the CPU time (of the thread) spent on pictures: drawing them, naming them,
    their alt texts and the one-line table beside them, their multipart bodies. On
    SIGUSR2, print the total so far to stderr as "bench-pictures: <seconds> <calls>"."""
    import signal
    import time

    from bot.discord import embeds
    from bot.views import attachments

    total = [0.0, 0]

    def timed(function):
        def counted(*args, **kwargs):
            began = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                total[0] += time.thread_time() - began
                total[1] += 1

        return counted

    for name in ("picture_of", "report_picture"):
        setattr(attachments, name, timed(getattr(attachments, name)))
    instrument(attachments.Picture, "form", timed(attachments.Picture.form))
    for name in ("file", "multipart"):  # discord.py's file and form (bot.discord.embeds)
        setattr(embeds, name, timed(getattr(embeds, name)))

    def report(signum, frame) -> None:
        print(f"bench-pictures: {total[0]:.6f} {total[1]}", file=sys.stderr, flush=True)

    signal.signal(signal.SIGUSR2, report)


def count_web_cpu() -> None:
    """Count the CPU time (of the thread) the live table spends on states: wording them
    (bot.views.web_state's public and private parts), the feed's whole turn (those, the
    JSON and each client's offer), and the frames sent (aiohttp's WebSocket writer:
    compressing and writing them). On SIGUSR2, print the totals so far to stderr as
    "bench-web: <public s> <calls> <private s> <calls> <feed s> <calls> <frames s> <calls>"
    (after the pictures' line when they are counted).

    BENCH_WEB_PROFILE=<file>: also profile the feed's turns (cProfile, only inside them),
    written to that file as the process exits (read it with pstats)."""
    import signal

    from aiohttp._websocket import writer

    from bot.views import web_state
    from bot.web import feed

    totals = {name: [0.0, 0] for name in ("public", "private", "feed", "frames")}
    timed = _web_timer(totals)
    instrument(web_state, "public", timed("public", web_state.public))
    instrument(web_state, "private", timed("private", web_state.private))
    instrument(feed.Feed, "send_due", timed("feed", feed.Feed.send_due))
    if os.environ.get("BENCH_WEB_PROFILE"):
        _profile_feed_turns(os.environ["BENCH_WEB_PROFILE"])
    frames = writer.WebSocketWriter
    instrument(
        frames, "_send_compressed_frame_sync", timed("frames", frames._send_compressed_frame_sync)
    )
    instrument(frames, "_write_websocket_frame", timed("frames", frames._write_websocket_frame))
    previous = signal.getsignal(signal.SIGUSR2)

    def report(signum, frame) -> None:
        if callable(previous):
            previous(signum, frame)
        said = " ".join(f"{t:.6f} {n}" for t, n in totals.values())
        print(f"bench-web: {said}", file=sys.stderr, flush=True)

    signal.signal(signal.SIGUSR2, report)


def _web_timer(totals: dict[str, list]):
    """`timed(name, function)`: `function` wrapped to add its thread's CPU time and its
    calls to `totals[name]`; a call made inside a frame's write (a frame writing itself)
    is not counted again."""
    import time

    depth = [0]

    def timed(name, function):
        total = totals[name]

        def counted(*args, **kwargs):
            if depth[0]:  # already inside a timed call of the same kind (a frame's write)
                return function(*args, **kwargs)
            depth[0] += name == "frames"
            began = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                total[0] += time.thread_time() - began
                total[1] += 1
                depth[0] -= name == "frames"

        return counted

    return timed


def _profile_feed_turns(path: str) -> None:
    """Profile the feed's turns (cProfile, enabled only inside them), written to `path`
    as the process exits."""
    import atexit
    import cProfile

    from bot.web import feed

    profiler, send_due = cProfile.Profile(), feed.Feed.send_due

    def profiled(self) -> None:
        profiler.enable()
        try:
            send_due(self)
        finally:
            profiler.disable()

    instrument(feed.Feed, "send_due", profiled)
    atexit.register(profiler.dump_stats, path)


def profile_window(path: str) -> None:
    """BENCH_PROFILE=<file>: profile the bot's main thread over the measured window
    (cProfile timing CPU, not wall time: from the first SIGUSR2, which the load benchmark
    sends as the window opens, to the second, as it closes), written to that file then
    (read it with pstats). Chained after the pictures' counter, which answers the same
    signal."""
    import cProfile
    import signal
    import time

    profiler = cProfile.Profile(time.thread_time)
    signals = [0]
    previous = signal.getsignal(signal.SIGUSR2)

    def toggle(signum, frame) -> None:
        if callable(previous):
            previous(signum, frame)
        signals[0] += 1
        if signals[0] == 1:
            profiler.enable()
        elif signals[0] == 2:
            profiler.disable()
            profiler.dump_stats(path)

    signal.signal(signal.SIGUSR2, toggle)


def on_loop(hook) -> None:
    """Call `hook(loop)` on the bot's event loop before the bot starts."""
    import asyncio

    from bot import app

    run_bot = app.run

    async def run(config):
        hook(asyncio.get_running_loop())
        await run_bot(config)

    app.run = run


def slow_callbacks(loop) -> None:
    """BENCH_SLOW_CALLBACKS=1: debug mode names each callback holding the loop 50 ms."""
    loop.set_debug(True)
    loop.slow_callback_duration = 0.05


def watch_stalls() -> None:  # diagnostics for --verbose runs
    """BENCH_STALL_STACKS=1: when the event loop has not turned for 40 ms, print where
    its thread is (innermost frames) to stderr, once per stall."""
    import asyncio
    import threading
    import time
    import traceback

    beat = [time.perf_counter()]
    main_thread = threading.main_thread().ident

    async def heartbeat() -> None:
        while True:
            beat[0] = time.perf_counter()
            await asyncio.sleep(0.005)

    def watchdog() -> None:
        reported = 0.0
        while True:
            time.sleep(0.01)
            last = beat[0]
            if time.perf_counter() - last > 0.04 and last != reported:
                reported = last
                frame = sys._current_frames().get(main_thread) if main_thread else None
                stack = traceback.extract_stack(frame)[-12:] if frame else []
                where = " < ".join(
                    f"{os.path.basename(f.filename)}:{f.lineno} {f.name}" for f in reversed(stack)
                )
                print(f"bench-stall: {where}", file=sys.stderr)

    on_loop(lambda loop: loop.create_task(heartbeat()))
    threading.Thread(target=watchdog, daemon=True).start()


if __name__ == "__main__":
    if os.environ.get("BENCH_STALL_STACKS"):
        watch_stalls()
    rate = os.environ.get("BENCH_GLOBAL_RATE")
    if rate:
        paced, lifted_rate = outbox.Outbox.__init__, float(rate)

        def lifted(self, *args, **kwargs) -> None:
            paced(self, *args, **{**kwargs, "rate": lifted_rate})

        instrument(outbox.Outbox, "__init__", lifted)
    if os.environ.get("BENCH_PICTURES") == "off":
        tracked = tables.Tables.track

        def without_pictures(self, table) -> None:
            tracked(self, table)
            table.pictures = False

        instrument(tables.Tables, "track", without_pictures)
    else:
        count_picture_cpu()
    if os.environ.get("APOPHIS_WEB_PORT"):
        count_web_cpu()
    if os.environ.get("BENCH_PROFILE"):
        profile_window(os.environ["BENCH_PROFILE"])
    if os.environ.get("BENCH_GC_LOG"):
        log_gc_pauses()
    if os.environ.get("BENCH_SLOW_CALLBACKS"):
        on_loop(slow_callbacks)
    sys.exit(main())
