"""The live table in a game under way, whole: docs/table-phone.png, docs/table-desktop.png.

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
import time
from pathlib import Path

from bot.game.clocks import stop_timers
from bot.table import Table
from devtools.sample_table.live import (
    DOCS,
    SEED,
    SETTLED,
    LiveTable,
    chromium,
    live_table,
    open_game,
    wait,
)
from engine import Phase, PlayerView, crew

#: The time left the pictures show, in seconds.
TIME_LEFT = 402.5
#: The pictures: file, CSS width and least height, device pixels per CSS pixel, and the
#: part of the page they end with (None: all of it). The phone's ends with your hand and
#: its moves (below them come the launch checks and the last actions, as on the desktop's).
SHOTS = (
    ("table-phone.png", 360, 780, 2, ".play-screen > .mine"),
    ("table-desktop.png", 1280, 800, 1, None),
)


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
        acting = table.seats[game.active]  # (a table's seats are its game's players)
        view = game.view_for(acting)
        if worth_showing(view):
            return acting
        decision = crew.decide(view, None)
        if game.phase is Phase.RESHUFFLE or decision is None:
            await asyncio.sleep(0.05)  # the bot's reshuffle timer ends it
            continue
        await live.bot.core.service.act(live.channel.id, acting, decision.action)
    raise SystemExit(f"seed {SEED}: the game reached no table worth showing; try another")


def stop_the_clock(live: LiveTable, table: Table, left: float = TIME_LEFT) -> float:
    """No timer fires any more, and the server's clock stands still `left` seconds before
    the game's end: every state shows that much time left, still running. The server's
    frozen time (for the page's clock to stand still at)."""
    stop_timers(table)
    frozen = time.time()
    live.web.feed.clock = lambda: frozen
    table.deadline = frozen + left
    live.web.feed.changed(table)
    return frozen


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
        wait(chrome, "document.querySelector('.play-screen > .mine .count')")  # their hand
        wait(chrome, SETTLED)  # the transitions of the first drawing end
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
        wait(chrome, SETTLED)
        chrome.save_screenshot(str(out))
    finally:
        chrome.quit()


async def draw() -> None:
    """Play the seeded game and write its pictures."""
    async with live_table() as live:
        table = await open_game(live, rules="basic", difficulty="easy")
        player = await play_until_worth_showing(live, table)
        assert live.bot.discord is not None  # (the live table is served beside Discord)
        await live.bot.discord.outbox.drain()
        frozen = stop_the_clock(live, table)
        name = next(m.user.name for m in live.members if m.user.id == player)
        live.fake.oauth.browser_user = player
        for shot in SHOTS:
            out = DOCS / shot[0]
            await asyncio.to_thread(take, live.url, live.channel.id, frozen, out, shot)
            print(f"wrote {out} ({name}'s view, move {table.version})")
