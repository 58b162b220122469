"""The bot under load: its processes (benchmarks/bot_process.py) and what /proc says they use."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

from benchmarks.load.machine import ROOT
from devtools.fakediscord import FakeDiscord

#: The fake's OpenAPI file, absent: request bodies not validated (`--validate` to).
NO_OPENAPI = Path("/nonexistent/discord-openapi.json")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def runqueue_wait(pid: int) -> float:
    """Seconds the process's main thread has waited for a CPU while runnable."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[1]) / 1e9
    return float("nan")


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def shard_settings(args, index: int) -> dict[str, str]:
    """The environment of bot process `index` of --processes: its shard of as many."""
    if args.processes == 1:
        return {}
    return {
        "APOPHIS_SHARD_COUNT": str(args.processes),
        "APOPHIS_SHARD_IDS": str(index),
        "APOPHIS_PROCESSES": str(args.processes),
    }


def pacing(args) -> dict[str, str]:
    """The outbox's pacing: lifted past Discord's 50 a second (the demand is measured), or
    within it the bot's own setting, each process its share (as production divides 45)."""
    if args.global_rate > 50:
        return {"BENCH_GLOBAL_RATE": str(args.global_rate)}
    return {"APOPHIS_GLOBAL_RATE": str(args.global_rate / args.processes)}


class BotProcess:
    """`python -m bot` (via benchmarks/bot_process.py) pointed at the fake."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: str,
        workdir: Path,
        *,
        log_level: str,
        args,
        settings: dict[str, str] | None = None,
    ) -> None:
        self.fake, self.database, self.log_level, self.args = fake, database, log_level, args
        self.workdir = workdir
        #: More environment variables (the shards of one of several processes).
        self.settings = settings or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.started = 0.0
        self.lines: deque[str] = deque(maxlen=200)
        self._watchers: list[tuple[re.Pattern, asyncio.Future]] = []
        self._reader: asyncio.Task | None = None

    async def start(self) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.fake.bot_token,
            "APOPHIS_DATABASE": str(self.database),
            "APOPHIS_LOG_LEVEL": self.log_level,
            "DISCORD_API_BASE_URL": self.fake.api_base_url,
            "DISCORD_GATEWAY_URL": self.fake.gateway_url,
            "APOPHIS_TIME_SCALE": str(self.args.time_scale),
            **pacing(self.args),
            "BENCH_PICTURES": self.args.pictures,
            "PYTHONUNBUFFERED": "1",
            "BENCH_GC_LOG": "1" if self.args.verbose else "",
            "BENCH_STALL_STACKS": os.environ.get("BENCH_STALL_STACKS", ""),
            "BENCH_SLOW_CALLBACKS": os.environ.get("BENCH_SLOW_CALLBACKS", ""),
            "BENCH_PROFILE": os.environ.get("BENCH_PROFILE", ""),
            **self.settings,
        }
        self.started = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(ROOT / "benchmarks" / "bot_process.py"),
            cwd=str(self.workdir),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        log = open(self.workdir / "bot.log", "a")  # noqa: SIM115
        while line := await self.proc.stderr.readline():
            text = line.decode(errors="replace").rstrip()
            self.lines.append(text)
            log.write(text + "\n")
            for pattern, future in list(self._watchers):
                if not future.done() and (match := pattern.search(text)):
                    future.set_result((time.monotonic(), match))

    def watch(self, pattern: str) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self._watchers.append((re.compile(pattern), future))
        return future

    def send_signal(self, number: int) -> None:
        """Signal the running bot (SIGUSR2: it reports its counters)."""
        if self.proc is None:
            raise RuntimeError("the bot process is not started")
        self.proc.send_signal(number)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def errors(self) -> list[str]:
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]

    async def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)


class Bots:
    """The bot's processes, measured together."""

    def __init__(self, processes: list[BotProcess]) -> None:
        self.processes = processes

    @property
    def lines(self) -> list[str]:
        return [line for p in self.processes for line in p.lines]

    def exited(self) -> bool:
        return any(p.proc is None or p.proc.returncode is not None for p in self.processes)

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.processes)

    def rss_kb(self) -> int:
        return sum(rss_kb(p.pid) for p in self.processes)

    def runqueue_wait(self) -> float:
        return sum(runqueue_wait(p.pid) or 0.0 for p in self.processes)

    async def picture_cpu(self) -> float:
        """CPU seconds the processes spent on pictures so far (bot_process.count_picture_cpu)."""
        total = 0.0
        for p in self.processes:
            said = p.watch(r"^bench-pictures: (\S+) (\d+)$")
            p.send_signal(signal.SIGUSR2)
            _, match = await asyncio.wait_for(said, 10)
            total += float(match.group(1))
        return total

    async def web_cpu(self) -> list[float]:
        """CPU seconds and calls of the live table so far, summed over the processes
        (bot_process.count_web_cpu: public, private, feed, frames; seconds then calls)."""
        total = [0.0] * 8
        for p in self.processes:
            said = p.watch(r"^bench-web: ([\d. ]+)$")
            p.send_signal(signal.SIGUSR2)
            _, match = await asyncio.wait_for(said, 10)
            total = [a + float(b) for a, b in zip(total, match.group(1).split(), strict=True)]
        return total

    def errors(self) -> list[str]:
        return [line for p in self.processes for line in p.errors()]
