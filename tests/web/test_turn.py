"""A turn on the live table, in headless Chromium against the real bot and the fake
Discord, the page's timers on the manual clock of the client's test build (?clock=manual,
moved by `__apophis.advance`): the "Your turn!" banner over the bar only, gone with the
turn; a launch's dice in view on a phone, and the last actions telling its result only
once they have shown it; a launch that would fail shown as a warning, with a build of
fuel as the main move; the end's time written once, one way; How to play's rocket true to
the fuel rule its words state."""

from __future__ import annotations

import re

import pytest

from tests.bot.helpers import Scene
from tests.web import test_browser
from tests.web.browser import Page
from tests.web.test_browser import activity_url, button
from tests.web.test_screens import NAMES, arranged_game, launch, speaking, text

pytestmark = pytest.mark.e2e
pages = test_browser.pages
#: A phone held upright.
PHONE = (360, 740)
#: How long the banner shows, and each launch check takes (notify.ts, checks.ts), in ms.
BANNER_MS, STEP_MS = 2200, 900
BANNER = "document.querySelector('.turn-banner')"
LAUNCH = button("launch")


@pytest.fixture(params=["en", "fr"])
def language(request) -> str:
    return request.param


async def open_manual(page: Page, url: str) -> None:
    """The page at `url`, its timers on the manual clock, once its game is shown."""
    await page.open(f"{url}&clock=manual")
    await page.wait("document.body.dataset.status === 'active'")
    assert await page.js("return typeof window.__apophis.advance;") == "function"


async def advance(page: Page, ms: int) -> None:
    await page.js(f"window.__apophis.advance({ms});")


async def rect(page: Page, css: str) -> dict[str, float]:
    return await page.js(
        f"const r = document.querySelector({css!r}).getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};"
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["top"] < b["bottom"] and b["top"] < a["bottom"] and a["left"] < b["right"]


async def test_the_banner_covers_only_the_bar_and_leaves_with_the_turn(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    async with fake_discord.connected(bot.discord):
        table = await arranged_game(bot, scene, hands=[["3H", "4H", "9C"], ["QS"]], active=1)
        speaking(scene, language, *NAMES)
        ada = await pages(*PHONE)
        await open_manual(ada, activity_url(bot, fake_discord, scene, "Ada"))
        await scene.cmd("draw", "Brahim")  # the turn comes to Ada
        await ada.wait(f"!{BANNER}.hidden")
        for width, height in (PHONE, (1280, 800)):
            await ada.view_at(width, height)
            banner, bar = await rect(ada, ".turn-banner"), await rect(ada, ".bar")
            assert bar["top"] <= banner["top"] and banner["bottom"] <= bar["bottom"], banner
            for css in (".board", ".mine", ".hand", ".moves"):  # the table (its depot), the hand
                assert not overlap(banner, await rect(ada, css)), css
            # Its picture, at the middle of its show (held there).
            held = "(a) => { a.pause(); a.currentTime = 1100; }"
            await ada.js(f"{BANNER}.getAnimations().forEach({held});")
            await ada.screenshot(tmp_path / f"banner-{width}-{language}.png")
        await ada.view_at(*PHONE)
        # Ada plays at once: the banner leaves with her turn, its time not yet up.
        version = table.version
        await ada.click(button("draw"))
        await ada.wait(f"Number(document.body.dataset.version) > {version}")
        assert not (await ada.state())["you"]["your_turn"]
        assert await ada.js(f"return {BANNER}.hidden;")
        # Her turn again: on the page's clock, the banner shows 2.2 s, then goes by itself.
        await scene.cmd("draw", "Brahim")
        await ada.wait(f"!{BANNER}.hidden")
        await advance(ada, BANNER_MS - 1)
        assert not await ada.js(f"return {BANNER}.hidden;")
        await advance(ada, 1)
        assert await ada.js(f"return {BANNER}.hidden;")


async def test_a_launch_on_a_phone_rolls_in_view_and_the_log_tells_it_after_the_dice(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    async with fake_discord.connected(bot.discord):
        table = await launch(bot, scene, damage=0)
        speaking(scene, language, *NAMES)
        ada = await pages(*PHONE)
        await open_manual(ada, activity_url(bot, fake_discord, scene, "Ada"))
        before = (await ada.state())["texts"]["recent"]
        version = table.version
        await ada.click(button("launch"))
        await ada.wait(f"Number(document.body.dataset.version) > {version}")
        await ada.wait("document.querySelector('.report.playing')")
        # The dice roll where Ada can see them, below the bar and above the screen's edge.
        checks = (
            "(() => { const r = document.querySelector('.report .checks').getBoundingClientRect();"
            " const bar = document.querySelector('.bar').getBoundingClientRect();"
            " return r.top >= bar.bottom && r.bottom <= window.innerHeight; })()"
        )
        await ada.wait(checks)
        told = [line for line in (await ada.state())["texts"]["recent"] if line not in before]
        assert any("💥" in line for line in told), told  # the damage, in the new lines
        # While they roll, the last actions are as they were before the launch.
        shown = await text(ada, ".recent")
        assert not [line for line in told if line in shown], shown
        await advance(ada, STEP_MS)  # two checks rolled
        assert await ada.js("return document.querySelector('.toast').hidden;")  # nothing over them
        await ada.settled()
        await ada.screenshot(tmp_path / f"launch-{PHONE[0]}-{language}.png")
        rows = await ada.js("return document.querySelectorAll('.report .check').length;")
        await advance(ada, (rows - 1) * STEP_MS - 1)  # the last check shown, the show not over
        assert await ada.js("return !!document.querySelector('.report.playing');")
        assert not [line for line in told if line in await text(ada, ".recent")]
        await advance(ada, 1)
        assert not await ada.js("return !!document.querySelector('.report.playing');")
        shown = await text(ada, ".recent")
        assert all(line in shown for line in told), (told, shown)


async def test_a_launch_that_would_fail_is_a_warning_and_fuel_the_main_move(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    async with fake_discord.connected(bot.discord):
        table = await arranged_game(
            bot,
            scene,
            hands=[["2C", "2H", "2D", "QS", "KS"], ["9C"]],
            rocket=[("red", 3), ("blue", 2)],  # 5 points, no fuel: a launch fails
            active=0,
        )
        speaking(scene, language, *NAMES)
        for width, height in (PHONE, (1280, 800)):
            ada = await pages(width, height)
            await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
            await ada.wait("document.body.dataset.status === 'active'")
            launching = await ada.js(f"return document.querySelector({LAUNCH!r}).className;")
            assert "warning" in launching.split() and "success" not in launching.split()
            fuel = button("build", "yellow.2")
            mains = await ada.js(
                "return [...document.querySelectorAll('.moves .main')].map((b) => b.dataset.move);"
            )
            assert [m.rsplit(":", 1)[1] for m in mains] == ["yellow.2"], mains  # most fuel
            assert await ada.js(f"return document.querySelector({fuel!r}).checkVisibility();")
            colours = await ada.js(
                f"return [{LAUNCH!r}, {fuel!r}].map((css) =>"
                " getComputedStyle(document.querySelector(css)).backgroundColor);"
            )
            assert colours[0] != colours[1], colours
            await ada.assert_accessible()
            await ada.screenshot(tmp_path / f"fuel-short-{width}-{language}.png")
        # Fuel built: the launch helps again, and is the main move.
        version = table.version
        await ada.click(fuel)
        await ada.wait(f"Number(document.body.dataset.version) > {version}")
        await scene.cmd("draw", "Brahim")
        await ada.wait("window.__apophis.lastState.you.your_turn")
        launching = await ada.js(f"return document.querySelector({LAUNCH!r}).className;")
        assert "success" in launching.split() and "warning" not in launching.split()


async def test_the_end_writes_its_time_once_one_way(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    async with fake_discord.connected(bot.discord):
        table = await launch(bot, scene, damage=2)
        speaking(scene, language, *NAMES)
        shown = [await pages(*PHONE), await pages(1280, 800)]
        for page in shown:
            await page.reduce_motion()
            await page.open(activity_url(bot, fake_discord, scene, "Ada"))
            await page.wait("document.body.dataset.status === 'active'")
        table.deadline, table.remaining = None, 75.6  # 1:15.6 left when it ends
        await shown[0].click(button("launch"))
        for page in shown:
            await page.wait("document.body.dataset.status === 'finished'")
            headline = await text(page, ".ending-title")
            assert await text(page, ".time") == "1:16", await text(page, ".time")
            assert re.findall(r"\d+:\d\d", headline) == ["1:16"], headline
            await page.settled()
            await page.screenshot(tmp_path / f"end-{page.width}-{language}.png")


async def test_how_to_plays_rocket_can_fly_as_its_words_say(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    async with fake_discord.connected(bot.discord):
        speaking(scene, language, "Ada")
        page = await pages(*PHONE)
        await page.open(activity_url(bot, fake_discord, scene, "Ada"))
        await page.wait("document.body.dataset.status === 'none'")
        await page.click(".notice-card button[data-action='howto']")
        await page.wait("document.querySelector('dialog.howto').open")
        pieces = await page.js(
            "return [...document.querySelectorAll('dialog.howto [data-piece]')]"
            ".map((p) => p.dataset.piece);"
        )
        sizes = [(colour, int(size)) for colour, size in (p.split(".") for p in pieces)]
        total = sum(size for _, size in sizes)
        fuel = sum(size for colour, size in sizes if colour == "yellow")
        assert 4 * fuel >= total, sizes  # the fuel rule: yellow at least a quarter
        assert [size for _, size in sizes] == sorted((s for _, s in sizes), reverse=True)
        words = await text(page, "dialog.howto")
        assert f" {total} points" in words and f"{fuel} " in words, words
        await page.screenshot(tmp_path / f"howto-{PHONE[0]}-{language}.png")
