"""A whole game of the real bot, played on the fake Discord by automatic players, recorded.

The bot runs as `python -m bot` in its own process, pointed at the fake Discord served
from this process. Each person is a fake Discord member whose moves are chosen by an
automatic player from what that person may see (their own hand and the table, read from
the state the bot committed) and made as a person makes them: slash commands and
buttons. When the game is over the record is written as an HTML page, in the game's
language. With `web` on, the bot serves the game live as its web table too
(devtools.demo.web).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from bot.i18n.catalogs import t
from bot.views.render import and_list
from devtools.demo import page, web
from devtools.demo.player import Person, answered
from devtools.demo.record import Record, record
from devtools.fakediscord import FakeDiscord
from engine import Game, Phase, crew

NAMES = ("Ada", "Brahim", "Chloé", "Dmitri")
WEB_PORT = web.PORT
#: Discord's locale for a catalog language where the two differ.
DISCORD_LOCALES = {"en": "en-US"}


@dataclass
class Options:
    people: tuple[str, ...] = NAMES
    #: The bot's own AI seats, added from the lobby (with the people, MAX_PLAYERS at most).
    crewmates: int = 0
    #: The language everyone plays in (their Discord language and the server's).
    language: str = "en"
    rules: str = "basic"
    difficulty: str = "easy"
    seed: int = 1
    #: How much faster than real time the countdown and the reshuffle run.
    time_scale: float = 30.0
    #: Real seconds a person thinks before acting (spread 0.5x to 1.5x).
    think: float = 0.05
    out: Path = Path("demo")
    #: Serve the game live as the web table (on `web_port`), shown `web_wait` seconds
    #: before the host starts, and kept served `linger` seconds after (None: until Enter).
    web: bool = False
    web_port: int = WEB_PORT
    web_wait: float = 5.0
    linger: float | None = 0.0
    #: Open the written page in the browser (``python -m devtools.demo --open``).
    open: bool = False


@dataclass
class Outcome:
    """What the terminal is told when the game is over."""

    page: Path
    record: Record
    status: str
    outcome: str | None
    actions: int
    summary: list[str] = field(default_factory=list)
    #: The live table's address (with `web` on), and the seconds it was served after the game.
    table_url: str | None = None
    lingered: float = 0.0


async def play(options: Options) -> Outcome:
    """Run the bot, play one game to its end, write the page; return what happened."""
    if options.web:
        web.check_port(options.web_port, options.language)
    table_url, lingered = None, 0.0
    async with FakeDiscord() as fake:
        locale = DISCORD_LOCALES.get(options.language, options.language)
        guild = fake.add_guild("Apophis demo", preferred_locale=locale)
        channel = fake.add_text_channel(guild, "apophis")
        members = [fake.add_member(guild, name) for name in options.people]
        for member in members:
            member.user.locale = locale
        fake.oauth.browser_user = members[0].user  # "Sign in with Discord" signs them in
        with tempfile.TemporaryDirectory(prefix="apophis-demo-") as tmp:
            database = Path(tmp) / "demo.sqlite3"
            bot = await _start_bot(fake, database, options)
            try:
                await _open_lobby(fake, channel, members, options)
                if options.web:
                    table_url = await web.show(
                        options.web_port, channel.id, members[0], options.web_wait, options.language
                    )
                game_id = await _start(fake, channel, members[0])
                actions = await _play_to_the_end(fake, channel, members, database, game_id, options)
                status, outcome = _result(database, game_id)
                await _settle(fake, database, game_id)
                if options.web:
                    lingered = await web.linger(options.linger, options.language)
            finally:
                await _stop(bot)
        rec = record(fake, channel, members)
        summary = _summary(rec, options, outcome)
        path = page.write(rec, options.out / "index.html", options.language, summary)
        return Outcome(path, rec, status, outcome, actions, summary, table_url, lingered)


def _summary(rec: Record, options: Options, outcome: str | None) -> list[str]:
    """Who played, how, how it ended, and what it took, in the game's language."""
    language = options.language
    people = list(options.people)
    if options.crewmates:
        people.append(t(language, "demo.summary.crewmates", count=options.crewmates))
    ended = outcome if outcome in ("destroyed", "deflected", "lost") else "other"
    return [
        and_list(people, language),
        t(language, "demo.summary.rules", rules=t(language, f"rules.{options.rules}")),
        t(language, f"difficulty.{options.difficulty}"),
        t(language, f"demo.ended.{ended}"),
        t(language, "demo.summary.messages", count=rec.public_messages),
        t(language, "demo.summary.pings", count=rec.pings),
        t(language, "demo.summary.dms", count=sum(len(rec.dms(name)) for name in rec.private)),
        t(language, "demo.summary.actions", count=sum(rec.clicks().values())),
    ]


@dataclass
class _Bot:
    """The bot's process, and the task copying its log beside the page."""

    process: asyncio.subprocess.Process
    log: asyncio.Task[None]


async def _start_bot(fake: FakeDiscord, database: Path, options: Options) -> _Bot:
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.bot_token,
        "APOPHIS_DATABASE": str(database),
        "DISCORD_API_BASE_URL": fake.api_base_url,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "APOPHIS_TIME_SCALE": str(options.time_scale),
        "APOPHIS_SEED": str(options.seed),
        "APOPHIS_LOG_LEVEL": "INFO",
        **(web.bot_env(fake, options.web_port) if options.web else {}),
    }
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    log = options.out / "bot.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    ready = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(_keep_log(bot, log, ready))
    await asyncio.wait_for(ready, 30)
    return _Bot(bot, task)


async def _keep_log(bot, path: Path, ready: asyncio.Future) -> None:
    """The bot's log, into a file beside the page; `ready` is set once it is logged in."""
    with path.open("wb") as log:
        while line := await bot.stderr.readline():
            log.write(line)
            if not ready.done() and b"ready: logged in" in line:
                ready.set_result(None)
    if not ready.done():
        ready.set_exception(RuntimeError(f"the bot stopped before it was ready; see {path}"))


async def _stop(bot: _Bot) -> None:
    process = bot.process
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()
            await process.wait()
    await bot.log


async def _open_lobby(fake, channel, members, options: Options) -> None:
    """The host opens a lobby, the others join, the host adds the AI crewmates."""
    host = members[0]
    opened = await fake.invoke(
        "apophis new",
        user=host,
        channel=channel,
        rules=options.rules,
        difficulty=options.difficulty,
    )
    await answered(opened)
    for member in members[1:]:
        await answered(await fake.invoke("apophis join", user=member, channel=channel))
    lobby = opened.message
    for _ in range(options.crewmates):  # the host presses Add AI crewmate
        add = next(
            c["custom_id"]
            for c in lobby.iter_components()
            if c.get("custom_id", "").endswith(":crewadd")
        )
        await answered(await fake.click(lobby, add, user=host))


async def _start(fake, channel, host) -> int:
    """The host starts the game, playing first; its id."""
    await answered(await fake.invoke("apophis start", user=host, channel=channel, first=host))
    return _game_id(fake, channel)


def _game_id(fake, channel) -> int:
    for message in fake.messages(channel):
        for component in message.iter_components():
            parts = component.get("custom_id", "").split(":")
            if parts[0] == "apo" and len(parts) > 2:
                return int(parts[2])
    raise LookupError("no game button in the channel")


def _state(database: Path, game_id: int) -> tuple[int, str, Game | None]:
    """The game as the bot last committed it, read without disturbing the bot."""
    version, status, game, _ = _clocked_state(database, game_id)
    return version, status, game


def _version(database: Path, game_id: int) -> int:
    """The game's version alone (checked at every change the fake records: kept cheap)."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        (version,) = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    return version


def _clocked_state(database: Path, game_id: int) -> tuple[int, str, Game | None, float | None]:
    """`_state` and the unix time the game's countdown runs out."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        version, status, state, deadline = db.execute(
            "SELECT version, status, state, clock_deadline FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return version, status, Game.restore(orjson.loads(state)) if state else None, deadline


def _result(database: Path, game_id: int) -> tuple[str, str | None]:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return db.execute("SELECT status, outcome FROM games WHERE id = ?", (game_id,)).fetchone()


async def _play_to_the_end(fake, channel, members, database, game_id, options) -> int:
    rng = random.Random(options.seed)
    people = {m.user.id: Person(fake, channel, m, rng) for m in members}
    actions = 0
    seen_version = -1
    while True:
        version, status, game, deadline = _clocked_state(database, game_id)
        if status != "active" or game is None or game.is_over:
            return actions
        # A crewmate's turn is the bot's to play: the people wait for it, as at a table.
        acting = game.active_player
        theirs = game.phase is Phase.RESHUFFLE or acting not in people
        if version == seen_version or theirs or acting is None:
            await fake.wait_for(
                lambda seen=version: _version(database, game_id) != seen,
                timeout=60,
                description="the game to move on",
            )
            continue
        seen_version = version
        # Each person plays as the crew policy would, from what they may see.
        left = None if deadline is None else (deadline - time.time()) * options.time_scale
        crewmates = frozenset(p for p in game.players if p not in people)  # shown as such
        decision = crew.decide(game.view_for(acting), left, crewmates=crewmates)
        if decision is None:
            continue
        action = decision.action
        await asyncio.sleep(options.think * rng.uniform(0.5, 1.5))  # a person thinking
        if _version(database, game_id) != version:
            continue  # the game moved on as they thought (the clock ran out, say): look again
        board = fake.world.messages[_board_id(database, game_id)]
        try:
            await people[action["player"]].play(action, game_id, version, board)
        except (TimeoutError, LookupError):  # no such move (or control) any more, or no answer
            now, status, _ = _state(database, game_id)
            if status != "active":
                return actions  # the clock ran out as they played
            if now == version:
                raise
            continue  # the game moved on meanwhile (a reshuffle ended): look again
        actions += 1


def _board_id(database: Path, game_id: int) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        (message_id,) = db.execute(
            "SELECT board_message_id FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return message_id


async def _settle(fake: FakeDiscord, database: Path, game_id: int) -> None:
    """Wait for the bot to draw the final board (no buttons left but Play again, its
    Details, and Table where the live table is served) before reading the record."""

    def final_board():
        message = fake.world.messages.get(_board_id(database, game_id) or -1)
        if message is None:
            return False
        ids = [c["custom_id"] for c in message.iter_components() if "custom_id" in c]
        return all(custom_id.endswith((":again", ":details", ":table")) for custom_id in ids)

    await fake.wait_for(final_board, timeout=20, description="the final board")
