"""The live table's states of a first evening with friends (issue 48), each at a phone's
width and a desktop's, in English and in French (docs/screens/table/).

Each scene is the real bot with its web table on a fresh fake Discord and database (so a
lobby offers the first games' difficulty), its people using Discord in one language, some
signed in to the table in headless Chromium (reduced motion asked), acting on their own
page as a player would: Join, the Say menu, Leave the game… Once a game starts its clock is
stopped, and the game's time runs at its real pace (no autopilot takes a seat meanwhile).
At each state worth a picture, one person's page is shot at 360 × 740 and 1280 × 800 CSS
pixels as `<state>-<width>-<lang>.png`, scrolled to what the state is about:

- `lobby`: Ada's first lobby on a new server, offering beginner with its reason line;
- `first`: Brahim, new to the game, seated from the table: the rocket that can launch;
- `dropin-join`: Chloé, not seated, offered the crewmate's seat; `dropin-told`: Ada reads
  that Chloé took it;
- `signal`: Chloé said "I'll build ♥" from her page's Say menu: Ada sees it by her seat;
- `leave-question`: Chloé's Leave the game…, asking first; `leave-crewmate`: she let a
  crewmate take her seat, as Ada reads it;
- `launch`: Ada's launch that hit Apophis, its checks in view.

Run: .venv/bin/python -m devtools.sample_table.states [--out DIR] [--language en|fr]
(after `make client`; Debian's chromium and chromium-driver, as the browser tests use).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from devtools.demo.player import answered
from devtools.discord_shots import small
from devtools.fakediscord import Member
from devtools.sample_table.live import DOCS, LOCALES, SETTLED, LiveTable, chromium, live_table, wait
from devtools.sample_table.screens import LAUNCHED, click, launch, stop_the_clock

OUT = DOCS / "screens" / "table"
#: (width, height) in CSS pixels: a phone's, and a desktop window's.
SIZES = ((360, 740), (1280, 800))
NAMES = ("Ada", "Brahim", "Chloé")
#: Where each picture is scrolled to: the top, or the middle of what it is about.
TOP = "window.scrollTo(0, 0);"
RECENT = "document.querySelector('.recent').scrollIntoView({block: 'center'});"
SEATS = "document.querySelector('.players').scrollIntoView({block: 'center'});"
#: The launch's checks: at the top of a phone's screen, at the bottom of a desktop's (the
#: table above them in view).
REPORT = (
    "document.querySelector('.report').scrollIntoView("
    "{block: window.innerWidth < 600 ? 'start' : 'end'});"
)
#: A passing note (a move's "done"), hidden before a picture: it is gone a moment later.
NO_NOTE = "document.querySelector('.toast').hidden = true;"
#: The lobby's link to share, as a host's would read (this run's port and channel vary).
SHARED = (
    "document.querySelectorAll('.share input').forEach((field) =>"
    " field.value = 'https://apophis.example.com/?channel=1234567890123456789');"
)


class Page:
    """One person's headless Chromium, signed in to the channel's table (its calls block:
    a scene runs them in a thread, the bot's loop running meanwhile)."""

    def __init__(self, live: LiveTable, member: Member) -> None:
        self.chrome = chromium(*SIZES[1])
        features = [{"name": "prefers-reduced-motion", "value": "reduce"}]
        self.chrome.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
        self.chrome.get(live.sign_in_url(member))
        wait(self.chrome, "document.body.dataset.version")

    def js(self, script: str) -> object:
        return self.chrome.execute_script(script)

    def press(self, css: str) -> None:
        """Once `css` is on the page and may be pressed, press it."""
        found = f"document.querySelector({css!r})"
        wait(
            self.chrome,
            f"{found} && !{found}.disabled && {found}.getAttribute('aria-disabled') !== 'true'",
        )
        self.js(f"{found}.click();")

    def shoot(self, out: Path, state: str, language: str, shown: str, scroll: str) -> None:
        """Once the page shows `shown`, at each of SIZES: `scroll`, and its screen written."""
        wait(self.chrome, shown)
        for width, height in SIZES:
            phone = width < 600
            metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone}
            self.chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            self.chrome.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone})
            self.js(NO_NOTE)
            self.js(scroll)
            wait(self.chrome, SETTLED)
            picture = out / f"{state}-{width}-{language}.png"
            picture.write_bytes(small(self.chrome.get_screenshot_as_png()))
            print(f"wrote {picture}")

    def quit(self) -> None:
        self.chrome.quit()


async def opened(live: LiveTable, member: Member, pages: list[Page]) -> Page:
    """`member`'s page, opened and signed in; kept in `pages` (to quit at the end)."""
    page = await asyncio.to_thread(Page, live, member)
    pages.append(page)
    return page


async def command(live: LiveTable, member: Member, name: str, **options: Any) -> None:
    """`member`'s slash command, answered, and what it posts posted."""
    await answered(await live.fake.invoke(name, user=member, channel=live.channel, **options))
    assert live.bot.discord is not None
    await live.bot.discord.outbox.drain()


async def first_lobby(live: LiveTable, out: Path, language: str, pages: list[Page]) -> None:
    """Ada opens the server's first lobby in Discord (beginner offered, and why); Brahim,
    new to the game, joins it from the table: his page welcomes him with the rocket."""
    ada, brahim = live.members[:2]
    await command(live, ada, "apophis new")
    host, newcomer = await opened(live, ada, pages), await opened(live, brahim, pages)
    await asyncio.to_thread(newcomer.press, ".lobby button[data-action='join']")
    seated = "document.querySelectorAll('.lobby-seat.taken').length === 2"
    await asyncio.to_thread(
        host.shoot,
        out,
        "lobby",
        language,
        seated + " && document.querySelector('.lobby .offer')",
        TOP + SHARED,
    )
    await asyncio.to_thread(
        newcomer.shoot, out, "first", language, "document.querySelector('.first-rocket')", TOP
    )


async def drop_in_talk_and_leave(
    live: LiveTable, out: Path, language: str, pages: list[Page]
) -> None:
    """Ada plays with an AI crewmate; Chloé, not seated, takes its seat from her page, says
    "I'll build ♥" from its Say menu, then leaves, letting a crewmate take her seat."""
    ada, chloe = live.members[0], live.members[2]
    await command(live, ada, "apophis new", difficulty="easy")
    await posted(live)
    await click(live, ada, "crewadd")
    await command(live, ada, "apophis start", first=ada)
    stop_the_clock(live, live.table())
    player, late = await opened(live, ada, pages), await opened(live, chloe, pages)
    await asyncio.to_thread(
        late.shoot, out, "dropin-join", language, "document.querySelector('.drop-in')", TOP
    )
    await asyncio.to_thread(late.press, ".drop-in button[data-action='join']")
    await asyncio.to_thread(player.shoot, out, "dropin-told", language, told("👋"), RECENT)
    await asyncio.to_thread(say, late, "build.red")
    await asyncio.to_thread(
        player.shoot, out, "signal", language, "document.querySelector('.players .said')", SEATS
    )
    await asyncio.to_thread(late.press, "button[data-action='leave-game']")
    asked = "document.querySelector('dialog.leave-question').open"
    await asyncio.to_thread(late.shoot, out, "leave-question", language, asked, TOP)
    await asyncio.to_thread(late.press, "dialog.leave-question [data-answer='crew']")
    await asyncio.to_thread(player.shoot, out, "leave-crewmate", language, told("🚪"), RECENT)


async def a_launch(live: LiveTable, out: Path, language: str, pages: list[Page]) -> None:
    """Ada and Brahim's game, a stacked deal: Ada's launch hits Apophis (every die a six)."""
    ada, brahim = live.members[:2]
    await command(live, ada, "apophis new", difficulty="easy")
    await command(live, brahim, "apophis join")
    await command(live, ada, "apophis start", first=ada)
    stop_the_clock(live, live.table())
    page = await opened(live, ada, pages)
    await launch(live, ada, brahim)
    await asyncio.to_thread(page.shoot, out, "launch", language, LAUNCHED, REPORT)


async def posted(live: LiveTable) -> None:
    """Until the bot has recorded its lobby message (just after the answer that carries it)."""
    async with asyncio.timeout(10):
        while live.table().messages.board_id is None:
            await asyncio.sleep(0.01)  # polling the bot's record: nothing to wait on from here


def told(mark: str) -> str:
    """The page's Last actions hold a line with `mark` (👋 a seat taken, 🚪 one left)."""
    lines = "[...document.querySelectorAll('.recent li')]"
    return f"{lines}.some((li) => li.textContent.includes({mark!r}))"


def say(page: Page, signal: str) -> None:
    """`page`'s player picks `signal` in the Say menu and sends it."""
    wait(page.chrome, f"document.querySelector(\".say-choice option[value='{signal}']\")")
    page.js(
        "const s = document.querySelector('.say-choice');"
        f" s.value = {signal!r}; s.dispatchEvent(new Event('change'));"
    )
    page.press(".say-send")


Scene = Callable[[LiveTable, Path, str, list[Page]], Awaitable[None]]
SCENES: dict[str, Scene] = {
    "lobby": first_lobby,
    "table": drop_in_talk_and_leave,
    "launch": a_launch,
}


async def draw(out: Path, languages: Sequence[str] = tuple(LOCALES)) -> None:
    """Every scene in each language, each on a bot of its own."""
    out.mkdir(parents=True, exist_ok=True)
    for language in languages:
        for scene in SCENES.values():
            pages: list[Page] = []
            try:
                async with live_table(NAMES, time_scale=1.0, language=language) as live:
                    await scene(live, out, language, pages)
            finally:
                for page in pages:
                    await asyncio.to_thread(page.quit)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"(default: {OUT})")
    parser.add_argument(
        "--language", action="append", choices=list(LOCALES), help="(default: both)"
    )
    args = parser.parse_args(argv)
    asyncio.run(draw(args.out, args.language or tuple(LOCALES)))


if __name__ == "__main__":
    main()
