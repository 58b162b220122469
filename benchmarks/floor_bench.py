"""The floor's cost: CPU per interaction of a bot that only answers (benchmarks/floor_bot.py).

Run: .venv/bin/python benchmarks/floor_bench.py [--places 500] [--rate 120] [--duration 30]

The same world as the load benchmark's (benchmarks/load_bench.py): the fake Discord with
--places servers, each with a text channel and four members, and the teams chatting
(--chat messages a place a minute, which the floor's client receives and ignores as the
bot's counts them). The floor bot (discord.py and aiohttp alone: one callback and one edit
an interaction) runs in its own process; this one sends it --rate slash commands a second,
open-loop (each from a random member of a random place, at exponential intervals), and
measures a window of --duration seconds after a warm-up: interactions a second, the floor
process's CPU per interaction (from /proc), its first response's latency (p50 and p99,
from dispatch to the callback reaching the fake) and its requests per interaction. The
load benchmark's bot CPU per action, divided by this figure, is the multiple of the floor
(docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load.bots import NO_OPENAPI, cpu_seconds
from benchmarks.load.machine import ROOT, commit, machine
from bot.app import on_fast_loop
from devtools.fakediscord import FakeDiscord

WARM_UP = 10.0
READY_TIMEOUT = 60.0


async def start_floor(fake: FakeDiscord, workdir: Path) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.bot_token,
        "DISCORD_API_BASE_URL": fake.api_base_url,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "PYTHONUNBUFFERED": "1",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "benchmarks" / "floor_bot.py"),
        cwd=str(workdir),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    while True:
        line = await asyncio.wait_for(proc.stderr.readline(), READY_TIMEOUT)
        if not line:
            raise RuntimeError("the floor bot stopped before it was ready")
        if b"floor-ready" in line:
            break
    asyncio.get_running_loop().create_task(drain(proc))
    return proc


async def drain(proc: asyncio.subprocess.Process) -> None:
    assert proc.stderr is not None
    while await proc.stderr.readline():
        pass


async def chatter(fake: FakeDiscord, places: list, per_minute: float, until: float) -> None:
    rng = random.Random(7)
    while time.monotonic() < until:
        await asyncio.sleep(1.0)
        for _ in range(round(per_minute * len(places) / 60 + rng.random() - 0.5)):
            channel, members = rng.choice(places)
            await fake.say(channel, rng.choice(members).user, "nice one")


async def measure(args) -> dict[str, float]:
    fake = FakeDiscord(openapi_path=NO_OPENAPI, keep_history=False)
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="apophis-floor-"))
    places = []
    for i in range(args.places):
        guild = fake.add_guild(f"Club {i}")
        channel = fake.add_text_channel(guild, "apophis")
        places.append((channel, [fake.add_member(guild, f"p{i}-{seat}") for seat in range(4)]))
    proc = await start_floor(fake, workdir)
    rng = random.Random(1)
    sent: list = []
    began = time.monotonic()
    window = (began + WARM_UP, began + WARM_UP + args.duration)
    talk = asyncio.create_task(chatter(fake, places, args.chat, window[1]))
    requests_before = cpu_before = 0.0
    tasks = set()
    try:
        while (now := time.monotonic()) < window[1]:
            if not cpu_before and now >= window[0]:
                cpu_before, requests_before = cpu_seconds(proc.pid), len(fake.requests)
            channel, members = rng.choice(places)
            task = asyncio.create_task(
                fake.invoke("tap", user=rng.choice(members).user, channel=channel)
            )
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            sent.append((now, task))
            await asyncio.sleep(rng.expovariate(args.rate))
        cpu = cpu_seconds(proc.pid) - cpu_before
        requests = len(fake.requests) - requests_before
        await asyncio.sleep(2.0)  # the last answers land
    finally:
        talk.cancel()
        proc.terminate()
        await proc.wait()
        await fake.stop()
    measured = [t.result() for at, t in sent if window[0] <= at < window[1] and t.done()]
    answered = [i for i in measured if i.attempts]
    latencies = sorted((i.attempts[0].at - i.created_at) * 1000 for i in answered)
    count = len(measured)
    return {
        "rate": count / args.duration,
        "cpu_ms": 1000 * cpu / count,
        "p50": statistics.median(latencies),
        "p99": latencies[int(0.99 * (len(latencies) - 1))],
        "unanswered": count - len(answered),
        "requests": requests / count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--places", type=int, default=500, help="servers, as the load's games (500)"
    )
    parser.add_argument("--rate", type=float, default=120.0, help="interactions a second (120)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured (30)")
    parser.add_argument("--chat", type=float, default=2.0, help="messages a place a minute (2)")
    args = parser.parse_args()
    print(f"Apophis floor benchmark: {machine()}; commit {commit()}")
    figures = on_fast_loop(measure(args))
    print(
        f"floor: {figures['rate']:.1f} interactions/s over {args.places} places; "
        f"CPU {figures['cpu_ms']:.2f} ms an interaction; first response p50 "
        f"{figures['p50']:.1f} ms, p99 {figures['p99']:.1f} ms; "
        f"{figures['requests']:.2f} requests an interaction; unanswered {figures['unanswered']}"
    )


if __name__ == "__main__":
    main()
