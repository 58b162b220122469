"""Draw the pictures of the live table (docs/table-phone.png, docs/table-desktop.png).

Run: .venv/bin/python -m devtools.sample_table   (after `make client`; needs Debian's
chromium and chromium-driver, as the browser tests do)

The real bot, with its web table, runs in this process against the fake Discord. Four
people open a game from Discord (`/apophis new`, join, start) and play it with the crew
policy, move by move through the game service as the table's clicks do, on a seeded deal,
so every run plays the same game. At its first table worth showing (a rocket of three
sections standing, a launch sequence under way, a hit on Apophis, and a person to play)
the countdown is stopped where it is shown: the server's clock and the page's stand still,
so the page shows the same time left, still running. Then the player to move signs in
with Discord (the browser redirect, the fake signing them in) in headless Chromium, and
their view is taken whole: at a phone's width (360 px, drawn at 2 pixels a CSS pixel, as
phones do) and at a desktop's (1280 px).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bot.app import build as build_bot
from bot.config import Config
from bot.discord.client import ApophisBot
from bot.game.clocks import stop_timers
from bot.table import Table
from bot.web.server import CLIENT
from devtools import livetable
from devtools.demo.player import answered
from devtools.fakediscord import Channel, FakeDiscord, Member
from engine import Phase, PlayerView, crew

DOCS = Path(__file__).resolve().parent.parent / "docs"
NAMES = ("Ada", "Brahim", "Chloé", "Dmitri")
SEED = 2
#: The time left the pictures show, in seconds.
TIME_LEFT = 402.5
#: The pictures: file, CSS width and least height, device pixels per CSS pixel, and the
#: part of the page they end with (None: all of it). The phone's ends with your hand and
#: its moves (below them come the launch checks and the last actions, as on the desktop's).
SHOTS = (
    ("table-phone.png", 360, 780, 2, "main > .mine"),
    ("table-desktop.png", 1280, 800, 1, None),
)


@dataclass
class LiveTable:
    """The bot with its web table, against a fake Discord, and the channel of its game."""

    fake: FakeDiscord
    bot: ApophisBot
    channel: Channel
    members: list[Member]

    @property
    def url(self) -> str:
        assert self.bot.web is not None
        return self.bot.web.public_url

    def table(self) -> Table:
        return self.bot.service.by_channel[self.channel.id]


@contextlib.asynccontextmanager
async def live_table(
    names: tuple[str, ...] = NAMES, seed: int = SEED, time_scale: float = 10.0
) -> AsyncIterator[LiveTable]:
    """The real bot with its web table on a free port, in this process, against a fake
    Discord with one guild, its #apophis channel and `names` as members (in English)."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Apophis", preferred_locale="en-US")
        channel = fake.add_text_channel(guild, "apophis")
        members = [fake.add_member(guild, name) for name in names]
        for member in members:
            member.user.locale = "en-US"
        with tempfile.TemporaryDirectory(prefix="apophis-table-") as folder:
            config = Config.from_env(
                {
                    "DISCORD_TOKEN": fake.bot_token,
                    "APOPHIS_DATABASE": str(Path(folder) / "apophis.sqlite3"),
                    "DISCORD_API_BASE_URL": fake.api_base_url,
                    "DISCORD_GATEWAY_URL": fake.gateway_url,
                    "APOPHIS_TIME_SCALE": str(time_scale),
                    "APOPHIS_SEED": str(seed),
                    "APOPHIS_WEB_PORT": str(livetable.free_port()),
                    "APOPHIS_CLIENT_ID": fake.oauth.client_id,
                    "APOPHIS_CLIENT_SECRET": fake.oauth.client_secret,
                }
            )
            bot = build_bot(config, guild_ready_timeout=0.05)
            async with fake.connected(bot):
                yield LiveTable(fake, bot, channel, members)


async def open_game(live: LiveTable, **options: str) -> Table:
    """The first person opens a lobby, the others join, the first starts, playing first."""
    fake, host = live.fake, live.members[0]
    await answered(await fake.invoke("apophis new", user=host, channel=live.channel, **options))
    for member in live.members[1:]:
        await answered(await fake.invoke("apophis join", user=member, channel=live.channel))
    start = await fake.invoke("apophis start", user=host, channel=live.channel, first=host)
    await answered(start)
    return live.table()


def worth_showing(view: PlayerView) -> bool:
    """A rocket of three sections, a launch sequence under way, a hit on Apophis, and a
    hand of four cards or more to play from."""
    table = view.table
    return (
        len(table.rocket) >= 3
        and 1 <= len(table.sequence) < 4
        and table.damage >= 1
        and table.phase is Phase.PLAY
        and len(view.hand) >= 4
    )


async def play_until_worth_showing(live: LiveTable, table: Table, moves: int = 400) -> int:
    """Play the game with the crew policy until its table is worth showing; who is to move."""
    for _ in range(moves):
        game = table.game
        if game is None or game.is_over:
            break
        view = game.view_for(game.active_player)
        if worth_showing(view):
            return game.active_player
        decision = crew.decide(view, None)
        if game.phase is Phase.RESHUFFLE or decision is None:
            await asyncio.sleep(0.05)  # the bot's reshuffle timer ends it
            continue
        await live.bot.service.act(live.channel.id, game.active_player, decision.action)
    raise SystemExit(f"seed {SEED}: the game reached no table worth showing; try another")


def stop_the_clock(live: LiveTable, table: Table, left: float = TIME_LEFT) -> float:
    """No timer fires any more, and the server's clock stands still `left` seconds before
    the game's end: every state shows that much time left, still running. The server's
    frozen time (for the page's clock to stand still at)."""
    assert live.bot.web is not None
    stop_timers(table)
    frozen = time.time()
    live.bot.web.feed.clock = lambda: frozen
    table.deadline = frozen + left
    live.bot.web.feed.changed(table)
    return frozen


def chromium(width: int, height: int, scale: float = 1):
    """Headless Chromium at that viewport (devtools.livetable), once the client is built."""
    if not (CLIENT / "index.html").is_file():
        raise SystemExit("the web client is not built: make client")
    try:
        return livetable.chromium(width, height, scale)
    except livetable.NoBrowser as exc:
        raise SystemExit(str(exc)) from None


def wait(chrome, script: str, timeout: float = 15.0):
    """Until the JavaScript expression `script` is truthy in the page; its value."""
    end = time.monotonic() + timeout
    while not (value := chrome.execute_script(f"return ({script});")):
        if time.monotonic() > end:
            raise TimeoutError(f"the page never showed {script}")
        time.sleep(0.05)
    return value


def take(
    url: str,
    channel: int,
    frozen: float,
    out: Path,
    shot: tuple[str, int, int, float, str | None],
) -> None:
    """Sign in at `url` (the fake's browser is signed in as the player), open the channel's
    table with the page's clock standing at `frozen`, and write the `shot` of it to `out`."""
    _, width, height, scale, last = shot
    chrome = chromium(width, height, scale)
    try:
        chrome.execute_cdp_cmd(
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": f"Date.now = () => {frozen * 1000:.0f};"},
        )
        chrome.get(f"{url}/auth/login?channel={channel}")
        wait(chrome, "document.body.dataset.status === 'active'")
        wait(chrome, "window.__apophis.lastState.you !== null")
        wait(chrome, "document.fonts.status === 'loaded'")
        time.sleep(1.0)  # the transitions of the first drawing end
        if last is None:
            end = chrome.execute_script("return document.documentElement.scrollHeight;")
        else:  # the end of that part, and the page's margin below it
            end = chrome.execute_script(
                "return Math.ceil(document.querySelector(arguments[0])"
                ".getBoundingClientRect().bottom + window.scrollY) + 12;",
                last,
            )
        metrics = {
            "width": width,
            "height": max(height, end),
            "deviceScaleFactor": scale,
            "mobile": width < 500,
        }
        chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        time.sleep(0.3)
        chrome.save_screenshot(str(out))
    finally:
        chrome.quit()


async def main() -> None:
    async with live_table() as live:
        table = await open_game(live, rules="basic", difficulty="easy")
        player = await play_until_worth_showing(live, table)
        await live.bot.outbox.drain()
        frozen = stop_the_clock(live, table)
        name = next(m.user.name for m in live.members if m.user.id == player)
        live.fake.oauth.browser_user = player
        for shot in SHOTS:
            out = DOCS / shot[0]
            await asyncio.to_thread(take, live.url, live.channel.id, frozen, out, shot)
            print(f"wrote {out} ({name}'s view, move {table.version})")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
