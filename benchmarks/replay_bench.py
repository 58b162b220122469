"""How large a replay's animated picture is, how long it takes to make, and how a burst of
◀ ▶ clicks on a long replay is answered.

Run: taskset -c 0 .venv/bin/python benchmarks/replay_bench.py [--actions 100] [--games 10]
     [--burst 48] [--burst-moves 1001] [--burst-seed 2] [--gap 0]
Each game is played by the crew policy (engine.simulate), both rule sets, 2 to 4 players,
its clock running out at its `--actions`-th action (sooner if the team wins), and stored
as the bot stores it, in a new SQLite file. Making the replay is what /apophis replay
does: the record and the log read from the store, the game played again by the engine
(bot.views.history.replay), each move's board picture drawn (history.frames) and the GIF
written (bot.pictures.replay.animate), at most 1,200 pictures and 8 MB
(bot.discord.cogs.replays.Replays.draw).
"first" is the first replay in the process (fonts, sprites and the palette made then),
"cold" each game with the board picture's caches emptied (the worst a running bot meets).
Prints moves, GIF size and seconds for each (`--games 0`: none).

The burst (`--burst N` clicks, 0: none) runs the real bot (`python -m bot`, a process of
its own, on the same core under taskset) against the fake Discord here (devtools/
fakediscord, which refuses a first answer after Discord's 3 s): a game of `--burst-moves`
moves is stored for the fake's server (its players act at random: seed 2, `--burst-seed`,
neither wins nor loses before its 1,098th move; seed 9 before its 1,774th), /apophis
replay posts it (time, the bot's CPU, GIF size), then N clicks come `--gap` seconds apart
(0: all at once), each on the ◀ or ▶ the message shows at that moment (▶ while there is
one), none waiting for an answer: once right after the replay was posted, once on a
restarted bot (nothing of the game kept in it). For each burst: clicks answered within
3 s and missed, the median and slowest first answer (from the click to the answer
reaching the fake), and the bot's CPU seconds meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from subprocess import DEVNULL

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # devtools, from a checkout

from bot.discord.cogs.replays import Replays
from bot.pictures import board_picture
from bot.store.store import Store
from bot.views import history
from devtools.fakediscord import FakeDiscord
from devtools.sample_replay import stored_game

ROOT = Path(__file__).resolve().parent.parent
#: A fake Discord without the schema check of every request body (slow, and not measured).
NO_OPENAPI = Path("/nonexistent/discord-openapi.json")
#: The seed whose random-policy game lasts past a thousand moves.
LONG_SEED = 2
#: The largest request body the fake takes here: Discord takes 25 MiB from a bot; the
#: fake's web server stops at aiohttp's 1 MiB unless told otherwise.
UPLOAD_LIMIT = 25 << 20


async def make(store: Store, game_id: int) -> tuple[int, float, int, str, int]:
    """The replay's GIF as /apophis replay makes it: its size and the seconds it took, and
    the game's moves, rules and players."""
    start = time.perf_counter()
    record, log = await store.get_game(game_id), await store.game_log(game_id)
    replayed = history.replay(record, log, "en")
    gif = await Replays().draw(replayed)
    took = time.perf_counter() - start
    return len(gif), took, len(log), record.rules, len(record.starting_players)


def forget() -> None:
    board_picture.forget(bands=True, parts=True)


def report(name: str, runs: list[tuple[int, float, int, str, int]]) -> None:
    for number, (size, seconds, moves, rules, players) in enumerate(runs, 1):
        print(
            f"{name:<6} game {number:>3}: {moves:>4} moves, {rules:<8} {players} players  "
            f"{size / 1024:7.1f} KB  {seconds:5.2f} s"
        )
    sizes, times = [run[0] for run in runs], [run[1] for run in runs]
    print(
        f"{name:<6} mean {statistics.fmean(sizes) / 1024:7.1f} KB, largest {max(sizes) / 1024:7.1f}"
        f" KB; mean {statistics.fmean(times):5.2f} s, slowest {max(times):5.2f} s\n"
    )


# ------------------------------------------------------------------- the burst


async def long_game(store: Store, guild_id: int, moves: int, seed: int = LONG_SEED) -> int:
    """A game of the server `guild_id` played by the random policy until its clock runs
    out at its `moves`-th action (sooner if it ends first), stored as the bot stores it."""
    return await stored_game(store, seed, moves, guild_id=guild_id, policy="random")


class BotProcess:
    """`python -m bot` in a process of its own, pointed at the fake (its log in `folder`)."""

    def __init__(self, fake: FakeDiscord, database: Path, folder: Path) -> None:
        self.fake, self.database, self.folder = fake, database, folder
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> BotProcess:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.fake.bot_token,
            "APOPHIS_DATABASE": str(self.database),
            "DISCORD_API_BASE_URL": self.fake.api_base_url,
            "DISCORD_GATEWAY_URL": self.fake.gateway_url,
            "PYTHONUNBUFFERED": "1",
        }
        with open(self.folder / "bot.log", "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=ROOT,
                env=env,
                stdin=DEVNULL,
                stdout=log,
                stderr=log,
            )
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            await self.proc.wait()

    def cpu(self) -> float:
        """The process's CPU seconds so far (/proc)."""
        assert self.proc is not None
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def ready(self, member, channel) -> None:
        """Wait until the bot answers a command in the fake's server."""
        for _ in range(240):
            assert self.proc is not None and self.proc.returncode is None, "the bot stopped"
            if self.fake.world.global_commands and self.fake.gateway.session_for(channel.guild_id):
                probe = await self.fake.invoke("apophis history", user=member, channel=channel)
                with contextlib.suppress(TimeoutError):
                    await probe.wait_response(timeout=5)
                    return
            await asyncio.sleep(0.5)
        raise RuntimeError(f"the bot did not answer: see {self.folder / 'bot.log'}")


def next_click(message) -> str:
    """The custom id of ▶ on the message as it is now, or of ◀ at the end."""
    buttons = [c for c in message.iter_components() if c["type"] == 2 and not c.get("disabled")]
    found = {button["custom_id"].rsplit(":", 1)[-1]: button["custom_id"] for button in buttons}
    return found.get("next") or found["prev"]


async def burst(fake: FakeDiscord, bot: BotProcess, message, member, args) -> str:
    """`args.burst` clicks, the k-th `k * args.gap` seconds after the first, each on the
    message as it is then: a line of figures once the bot has answered them all (or let
    them pass)."""
    clicks, cpu, start = args.burst, bot.cpu(), fake.now()

    async def click(number: int):
        await asyncio.sleep(max(0.0, start + number * args.gap - fake.now()))
        return await fake.click(message, next_click(message), user=member)

    sent = await asyncio.gather(*(click(number) for number in range(clicks)))
    await fake.notifier.wait(
        lambda: all(i.attempts or fake.now() - i.created_at > 10 for i in sent),
        timeout=120,
        description="the burst's answers",
    )
    cpu = bot.cpu() - cpu
    waits = [i.attempts[0].at - i.created_at for i in sent if i.attempts]
    answered = sum(1 for i in sent if i.responded)
    del fake.violations[:]  # a late answer is a figure here, not a failure
    return (
        f"{answered:>3} of {clicks} answered within 3 s, {clicks - answered} missed; first "
        f"answer median {statistics.median(waits or [0]) * 1000:5.0f} ms, slowest "
        f"{max(waits or [0]) * 1000:5.0f} ms; bot CPU {cpu:5.2f} s"
    )


async def bursts(args) -> None:
    fake = FakeDiscord(openapi_path=NO_OPENAPI, keep_history=False, upload_limit=UPLOAD_LIMIT)
    guild = fake.add_guild()
    channel = fake.add_text_channel(guild, "apophis")
    member = fake.add_member(guild, "ann")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        database = folder / "bot.sqlite3"
        store = await Store.open(database)
        try:
            game_id = await long_game(store, guild.id, args.burst_moves, args.burst_seed)
            moves = len(await store.game_log(game_id))
        finally:
            await store.close()
        async with fake:
            async with BotProcess(fake, database, folder) as bot:
                await bot.ready(member, channel)
                cpu, start = bot.cpu(), time.perf_counter()
                asked = await fake.invoke(
                    "apophis replay", user=member, channel=channel, game=game_id
                )
                message = await asked.wait_reply(timeout=300)
                took, cpu = time.perf_counter() - start, bot.cpu() - cpu
                (gif,) = message.attachments
                print(
                    f"replay of a {moves}-move game posted in {took:5.2f} s (bot CPU {cpu:5.2f}"
                    f" s), GIF {len(gif.content) / 1024:7.1f} KB"
                )
                line = await burst(fake, bot, message, member, args)
                print(f"burst, posted      : {line}")
            async with BotProcess(fake, database, folder) as bot:
                await bot.ready(member, channel)
                line = await burst(fake, bot, message, member, args)
                print(f"burst, restarted   : {line}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--burst", type=int, default=48, help="clicks in a burst (0: none)")
    parser.add_argument("--burst-moves", type=int, default=1001)
    parser.add_argument("--burst-seed", type=int, default=LONG_SEED, help="9: 1,774 moves")
    parser.add_argument("--gap", type=float, default=0.0, help="seconds between clicks")
    args = parser.parse_args()
    if args.games:
        with tempfile.TemporaryDirectory() as folder:
            store = await Store.open(Path(folder) / "replays.sqlite3")
            try:
                games = [await stored_game(store, seed, args.actions) for seed in range(args.games)]
                report("first", [await make(store, games[0])])
                cold = []
                for game_id in games:
                    forget()
                    cold.append(await make(store, game_id))
                report("cold", cold)
            finally:
                await store.close()
    if args.burst:
        await bursts(args)


if __name__ == "__main__":
    asyncio.run(main())
