"""The live table's screens on a phone, in English and in French: a lobby as its host sees
it, just after a launch that hit Apophis, and the end of a won game
(docs/table-{lobby,launch,end}-360-{en,fr}.png).

For each language, a bot of its own against the fake Discord, whose two members use
Discord in that language. Ada opens a lobby from Discord, Brahim joins, Ada adds an AI
crewmate with the lobby's button, and signs in to the table in headless Chromium (360 ×
640 CSS pixels, 2 device pixels each, reduced motion asked so that nothing is caught
mid-animation): the lobby, scrolled to its seats, settings and Start. She drops the
crewmate and starts; the clock is stopped at 4:32 left. Then three launches with the
typed commands, on a deal stacked before each move: the player to move builds a large red
warhead (/build), the other a medium yellow fuel tank on it, and the first launches it
with the four 2s (/launch), every die a six. The first hits Apophis (the launch, its
report in view), the third destroys it (the end, its story and Play again).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.game.clocks import stop_timers
from bot.table import Table
from devtools.demo.player import answered
from devtools.fakediscord import Member
from devtools.sample_table.live import DOCS, LOCALES, SETTLED, LiveTable, chromium, live_table, wait
from engine import ScriptedRandom

WIDTH, HEIGHT, SCALE = 360, 640, 2
NAMES = ("Ada", "Brahim")
#: The time left the pictures show (the clock stopped), in seconds.
TIME_LEFT = 272.0
#: The cards of each launch: its rocket's large red warhead and medium yellow fuel (5
#: points, 2 of them fuel), and its sequence; its dice (accuracy, damage).
WARHEAD, FUEL = ("3H", "4H", "5H"), ("QS", "KS")
SEQUENCE = ("2C", "2H", "2D", "2S")
DICE = (6, 6)
#: What each picture waits for on the page, and what the page then does before it.
LOBBY = "document.querySelectorAll('.lobby-seat.taken').length === 3"
LAUNCHED = (
    "document.body.dataset.status === 'active'"
    " && document.querySelectorAll('circle.hurt').length === 1"  # one mark of damage
    " && document.querySelectorAll('.report .check').length >= 3"
)
WON = "document.body.dataset.status === 'finished' && document.querySelector('.ending.won')"
#: The seats just below the bar, the settings and Start below them.
TO_THE_SEATS = (
    "window.scrollBy(0, document.querySelector('.lobby-seat').getBoundingClientRect().top"
    " - document.querySelector('.bar').getBoundingClientRect().bottom - 12);"
)
TO_THE_REPORT = "document.querySelector('.report').scrollIntoView();"
TO_THE_TOP = "window.scrollTo(0, 0);"


async def click(live: LiveTable, member: Member, action: str) -> None:
    """`member` presses the lobby message's button for `action`."""
    board_id = live.table().messages.board_id
    if board_id is None:
        raise RuntimeError("the table has no lobby message")
    lobby = live.fake.world.messages[board_id]
    custom_id = next(
        c["custom_id"]
        for c in lobby.iter_components()
        if c.get("custom_id", "").endswith(f":{action}") and not c.get("disabled")
    )
    await answered(await live.fake.click(lobby, custom_id, user=member))


def stop_the_clock(live: LiveTable, table: Table) -> None:
    """No timer fires any more, and the clock stands at TIME_LEFT, not running."""
    stop_timers(table)
    table.deadline, table.remaining = None, TIME_LEFT
    live.web.feed.changed(table)


def deal(table: Table, player: int, cards: Sequence[str], dice: Sequence[int] = ()) -> None:
    """The deal stacked for `player`, to move: `cards` join their hand (taken from wherever
    they were), and the next dice are `dice`. As if committed (what a failed commit would
    put the game back to)."""
    game = table.game
    assert game is not None and game.active_player == player
    for pile in (game.deck, game.discard_pile, *game.hands):
        pile[:] = [card for card in pile if card not in cards]
    game.hands[game.players.index(player)] += cards
    if dice:
        game.rng = ScriptedRandom(dice, state=game.rng.state)
    table.stored = game.save()


async def launch(live: LiveTable, launcher: Member, helper: Member) -> None:
    """`launcher`, to move, builds a large red warhead, `helper` a medium yellow fuel tank
    on it, and `launcher` launches it, every die a six: with the typed commands."""
    table, channel = live.table(), live.channel
    for member, cards, colour, size in (
        (launcher, WARHEAD, "red", "large"),
        (helper, FUEL, "yellow", "medium"),
    ):
        deal(table, member.user.id, cards)
        build = await live.fake.invoke(
            "build", user=member, channel=channel, colour=colour, size=size
        )
        await answered(build)
    deal(table, launcher.user.id, SEQUENCE, DICE)
    sequence = " ".join(SEQUENCE)
    await answered(await live.fake.invoke("launch", user=launcher, channel=channel, cards=sequence))


def open_page(url: str):
    """A phone's Chromium, asking for reduced motion, signed in at `url`, on the lobby."""
    chrome = chromium(WIDTH, HEIGHT, SCALE)
    features = [{"name": "prefers-reduced-motion", "value": "reduce"}]
    chrome.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
    chrome.get(url)
    wait(chrome, "document.body.dataset.screen === 'lobby'")
    return chrome


def shoot(chrome, name: str, language: str, shown: str, scroll: str = TO_THE_TOP) -> None:
    """Once the page shows `shown`, `scroll` it and write what its screen shows."""
    wait(chrome, shown)
    chrome.execute_script(scroll)
    wait(chrome, SETTLED)
    out = DOCS / f"table-{name}-{WIDTH}-{language}.png"
    chrome.save_screenshot(str(out))
    print(f"wrote {out}")


async def draw(language: str) -> None:
    """The lobby, a launch and the end, as Ada sees them in `language`."""
    async with live_table(NAMES, language=language) as live:
        ada, brahim = live.members
        fake, channel = live.fake, live.channel
        new = await fake.invoke("apophis new", user=ada, channel=channel, difficulty="easy")
        await answered(new)
        await answered(await fake.invoke("apophis join", user=brahim, channel=channel))
        await click(live, ada, "crewadd")
        chrome = await asyncio.to_thread(open_page, live.sign_in_url(ada))
        try:
            await asyncio.to_thread(shoot, chrome, "lobby", language, LOBBY, TO_THE_SEATS)
            await click(live, ada, "crewdrop")
            start = await fake.invoke("apophis start", user=ada, channel=channel, first=ada)
            await answered(start)
            stop_the_clock(live, live.table())
            await launch(live, ada, brahim)
            await asyncio.to_thread(shoot, chrome, "launch", language, LAUNCHED, TO_THE_REPORT)
            await launch(live, brahim, ada)
            await launch(live, ada, brahim)
            await asyncio.to_thread(shoot, chrome, "end", language, WON)
        finally:
            await asyncio.to_thread(chrome.quit)


async def draw_all() -> None:
    """The three pictures in each language."""
    for language in LOCALES:
        await draw(language)
