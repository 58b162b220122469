"""Every state of the live table in headless Chromium, in English and in French, at a
phone's width (360 × 640), a tablet's (768) and a desktop's (1280), against the real bot
and the fake Discord: no game yet (then its lobby, live), a lobby, a game under way, a
launch (and a reroll), the end (a win, a loss), a restart, a refused socket and a bad
link. Each state is audited by axe-core at each width (no serious or critical finding),
and a French page shows no English; the lobby, a game, a launch and the end are compared
with stored pictures, taken with reduced motion so that nothing moves
(tests/web/data/screens, at half scale; APOPHIS_UPDATE_REFERENCE=1 writes them)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.i18n.catalogs import t
from bot.views.web_state import labels
from bot.web import server
from tests.bot.helpers import Scene
from tests.web import test_browser
from tests.web.browser import Page
from tests.web.test_browser import activity_url, button

pytestmark = pytest.mark.e2e
#: The browser tests' fixture: pages showing the client's test build (the SDK mocked).
pages = test_browser.pages
#: Each width, with the height its screen shows.
WIDTHS = {360: 640, 768: 1024, 1280: 800}
#: The stored pictures, and whether this run writes them anew.
SCREENS = Path(__file__).parent / "data" / "screens"
UPDATE = bool(os.environ.get("APOPHIS_UPDATE_REFERENCE"))
#: How much of a picture may differ (pixels off by more than THRESHOLD in grey).
CHANGED, THRESHOLD = 0.02, 48
NAMES = ("Ada", "Brahim")


@pytest.fixture(params=["en", "fr"])
def language(request) -> str:
    return request.param


def speaking(scene: Scene, language: str, *names: str) -> None:
    """These people use Discord in `language` (their table's page follows it)."""
    for name in names:
        scene[name].user.locale = "fr" if language == "fr" else "en-US"


async def matches_reference(page: Page, name: str, tmp_path: Path) -> bool:
    """Whether the page as shown looks like its stored picture (False: one was written)."""
    png = await page.call(page.driver.get_screenshot_as_png)
    taken = Image.open(io.BytesIO(png)).convert("RGB")
    assert taken.size == (page.width, page.height)
    small = taken.resize((page.width // 2, page.height // 2), Image.Resampling.LANCZOS)
    reference = SCREENS / f"{name}.png"
    taken.save(tmp_path / f"{name}-full.png")  # to look at, whatever comes of it
    if UPDATE or not reference.is_file():
        SCREENS.mkdir(parents=True, exist_ok=True)
        small.save(reference, optimize=True)
        return False
    wanted = Image.open(reference).convert("RGB")
    assert small.size == wanted.size, name
    difference = ImageChops.difference(small, wanted).convert("L")
    changed = difference.point(lambda v: 255 if v > THRESHOLD else 0).histogram()[255]
    share = changed / (small.width * small.height)
    assert share < CHANGED, f"{share:.1%} of {name} differs from {reference} (see {tmp_path})"
    return True


async def every_width(page: Page, name: str | None, tmp_path: Path, before=None) -> None:
    """At each width: audited, and (when it has a `name`) compared with its picture; a
    French page (the name says) shows no English word. `before` readies the page at each
    width (scrolls to what the picture shows)."""
    written = []
    for width, height in WIDTHS.items():
        await page.view_at(width, height)
        if before is not None:
            await before(page)
        await page.settled()
        await page.js("document.querySelector('.toast').hidden = true;")  # a passing note
        await page.wait("document.querySelector('.turn-banner').hidden")
        await page.assert_accessible()
        if await page.js("return document.documentElement.lang;") == "fr":
            await page.assert_in_french()
        if name is not None and not await matches_reference(page, f"{name}-{width}", tmp_path):
            written.append(width)
    if written:
        pytest.skip(f"pictures written anew for {name} at {written} px in {SCREENS}")


async def text(page: Page, css: str) -> str:
    return await page.js(f"return document.querySelector({css!r}).textContent;")


async def arranged_game(bot, scene, **layout):
    """Ada and Brahim's game (basic rules, easy), the deal stacked, its clock stopped at
    4:32 so that every picture shows the same time."""
    table = await scene.new_game("Ada", "Brahim", rules="basic", difficulty="easy")
    scene.arrange(**layout)
    table.deadline, table.remaining = None, 272.0
    bot.web.feed.changed(table)
    return table


async def test_no_game_yet_then_its_lobby_as_it_opens(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    words = labels(language)
    async with fake_discord.connected(bot.discord):
        speaking(scene, language, "Ada")
        page = await pages(360, 640)
        await page.open(activity_url(bot, fake_discord, scene, "Ada"))
        await page.wait("document.body.dataset.status === 'none'")
        assert await text(page, ".notice-card h2") == words["no_game_title"]
        shown = await page.js("return document.body.innerText;")
        assert words["connecting"] not in shown and words["offline"] not in shown
        await every_width(page, None, tmp_path)
        speaking(scene, "en", "Ada")  # the slash command's answer is read in English
        await scene.cmd("apophis new", "Ada")
        await page.wait("document.body.dataset.screen === 'lobby'")
        assert await text(page, ".lobby-seat .name") == "Ada"


async def test_a_lobby_for_its_host_and_for_a_guest(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    words = labels(language)
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "Ada", difficulty="easy")
        await scene.cmd("apophis join", "Brahim")
        table = scene.live()
        speaking(scene, language, *NAMES)
        ada, brahim = await pages(360, 640), await pages(360, 640)
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await brahim.open(activity_url(bot, fake_discord, scene, "Brahim"))
        for page in (ada, brahim):
            await page.wait("document.body.dataset.screen === 'lobby'")
        await ada.click('button[data-action="crewadd"]:not([aria-disabled])')
        await ada.wait("document.querySelectorAll('.lobby-seat.taken').length === 3")
        # The host changes the countdown from the table: the guest sees it.
        await ada.js(
            "const s = document.querySelector('select[data-action=\"minutes\"]');"
            "s.value = '12'; s.dispatchEvent(new Event('change'));"
        )
        await brahim.wait("window.__apophis.lastState.settings.minutes === 12")
        assert table.length_seconds == 12 * 60
        # What cannot work now is off, and says why.
        assert await ada.js("return document.querySelector('[data-action=\"join\"]').ariaDisabled;")
        assert await text(ada, "#why-join") == words["why_seated"]
        assert await text(brahim, "#why-start") == words["why_only_host"]
        assert not await brahim.js("return document.querySelector('select');")  # a guest reads them
        await every_width(brahim, None, tmp_path)
        await ada.reduce_motion()
        await every_width(ada, f"lobby-{language}", tmp_path)
        # How to play, from the lobby: its steps with their pictures, closed again.
        await ada.click('.lobby button[data-action="howto"]')
        await ada.wait("document.querySelector('dialog.howto').open")
        steps = await ada.js("return document.querySelectorAll('.howto-steps li svg').length;")
        assert steps == 4
        assert await text(ada, ".howto-steps li:first-child p") == words["howto_goal"]
        await every_width(ada, None, tmp_path)
        await ada.click('dialog.howto button[data-action="close"]')
        await ada.wait("!document.querySelector('dialog.howto').open")


async def test_a_game_under_way_fits_a_phone_for_the_player_to_move(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    words = labels(language)
    async with fake_discord.connected(bot.discord):
        await arranged_game(
            bot,
            scene,
            hands=[["3H", "4H", "5H", "9C", "JD", "KS"], ["QS", "2C"]],
            rocket=[("red", 3), ("yellow", 2)],
            damage=1,
            counters=2,
            active=0,
        )
        speaking(scene, language, *NAMES)
        ada, brahim = await pages(360, 640), await pages(360, 640)
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await brahim.open(activity_url(bot, fake_discord, scene, "Brahim"))
        for page in (ada, brahim):
            await page.wait("document.body.dataset.status === 'active'")
            await page.settled()
        # Off their turn, a move is plainly off and says why when pressed.
        draw = 'button[data-action="draw"]'
        assert await brahim.js(f"return document.querySelector({draw!r}).ariaDisabled;") == "true"
        await brahim.js(f"document.querySelector({draw!r}).click();")
        await brahim.wait(
            f"document.querySelector('.toast').textContent === {words['why_not_your_turn']!r}"
        )
        await ada.view_at(1280, 800)
        assert (
            await ada.js("return getComputedStyle(document.querySelector('kbd')).display;")
            != "none"
        )
        await ada.reduce_motion()
        await every_width(ada, f"play-{language}", tmp_path)
        await ada.view_at(360, 640)
        # The player to move sees the table, their hand and every move without scrolling.
        bottom = await ada.js(
            "return Math.max(...[...document.querySelectorAll('.moves button, .hand')]"
            ".filter((e) => e.checkVisibility()).map((e) => e.getBoundingClientRect().bottom));"
        )
        assert 0 < bottom <= 640, bottom
        # Discord's picture-in-picture: the countdown, whose turn, the hand; nothing else.
        await ada.js("document.body.dataset.layout = 'pip';")
        shown = await ada.js(
            "return ['.time', '.next', '.hand', '.table', '.moves', '.players']"
            ".map((css) => document.querySelector(css).checkVisibility());"
        )
        assert shown == [True, True, True, False, False, False], shown
        assert (
            await ada.js("return getComputedStyle(document.querySelector('kbd')).display;")
            == "none"
        )


async def launch(bot, scene, damage: int):
    """Ada builds a large red, Brahim a medium yellow, Ada launches: every die a six."""
    table = await arranged_game(
        bot,
        scene,
        hands=[["3H", "4H", "5H", "2C", "2H", "2D", "2S"], ["KS", "QS"]],
        damage=damage,
        dice=[6, 6, 6, 6],
        active=0,
    )
    await scene.cmd("build", "Ada", colour="red", size="large")
    await scene.cmd("build", "Brahim", colour="yellow", size="medium")
    return table


async def test_a_launch_told_check_by_check(fake_discord, make_web_bot, pages, language, tmp_path):
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    async with fake_discord.connected(bot.discord):
        table = await launch(bot, scene, damage=0)
        speaking(scene, language, *NAMES)
        ada, brahim = await pages(360, 640), await pages(1280, 800)
        await brahim.reduce_motion()
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await brahim.open(activity_url(bot, fake_discord, scene, "Brahim"))
        for page in (ada, brahim):
            await page.wait("document.body.dataset.status === 'active'")
        table.deadline, table.remaining = None, 272.0
        await ada.click(button("launch"))
        # Ada's page plays it: one check after another, each die rolled, skippable.
        await ada.wait("document.querySelector('.report.playing .check.pending')")
        await ada.click('.report button[data-action="skip"]')
        await ada.wait("!document.querySelector('.report .pending')")
        verdicts = await ada.js(
            "return [...document.querySelectorAll('.check .verdict')].map((v) => v.textContent);"
        )
        said = [
            t(language, f"web.verdict.{step}") for step in ("fuel.ok", "accuracy.ok", "damage.ok")
        ]
        assert all(any(words in v for v in verdicts) for words in said), verdicts
        # Brahim asked for reduced motion: all of it at once, nothing to skip.
        await brahim.wait("document.querySelectorAll('.report .check').length >= 3")
        assert not await brahim.js("return document.querySelector('.report .pending, .skip');")
        assert (await brahim.state())["table"]["damage"] == 1

        async def to_the_report(page: Page) -> None:
            await page.js("document.querySelector('.report').scrollIntoView();")

        await every_width(brahim, f"launch-{language}", tmp_path, to_the_report)


async def test_a_win_is_celebrated_and_a_loss_told_plainly(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    words = labels(language)
    async with fake_discord.connected(bot.discord):
        table = await launch(bot, scene, damage=2)
        speaking(scene, language, *NAMES)
        ada = await pages(360, 640)
        await ada.reduce_motion()
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await ada.wait("document.body.dataset.status === 'active'")
        table.deadline, table.remaining = None, 272.0
        await ada.click(button("launch"))
        await ada.wait("document.body.dataset.status === 'finished'")
        story = (await ada.state())["story"]
        assert story["won"] and len(story["launches"]) == 1
        assert await text(ada, ".ending.won .ending-title") == story["headline"]
        assert await text(ada, ".ending-kicker") == words["ending_won"]
        assert await ada.js(
            "return document.querySelector('.ending button[data-action=\"again\"]');"
        )
        await every_width(ada, f"end-{language}", tmp_path)

        # Play again, and this time the clock runs out: Apophis hits Earth.
        await ada.click('.ending button[data-action="again"]')
        await ada.wait("document.body.dataset.screen === 'lobby'")
        await ada.click('button[data-action="start"]:not([aria-disabled])')
        await ada.wait("document.body.dataset.status === 'active'")
        again = scene.live()
        again.deadline = bot.core.service.now() - 1
        speaking(scene, "en", "Ada")
        await scene.cmd("draw", "Ada")
        await ada.wait("document.querySelector('.ending.lost')")
        assert await text(ada, ".ending.lost .ending-kicker") == words["ending_lost"]
        assert (await ada.state())["story"]["short"] in await text(ada, ".ending")
        await every_width(ada, None, tmp_path)


async def test_a_refused_watcher_is_told_why_and_how_to_sign_in(
    fake_discord, make_web_bot, pages, monkeypatch, language, tmp_path
):
    """A channel not open to its whole server, its link opened in a browser nobody signed
    in to (production's build): the reason, a way to sign in, and no endless Connecting."""
    monkeypatch.setattr(server, "CLIENT", test_browser.PRODUCTION)
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    everyone = scene.guild.roles[scene.guild.id]
    await fake_discord.set_permissions(scene.channel, everyone, deny=1 << 10)
    words = labels(language)
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "Ada")
        page = await pages(360, 640)
        await page.open(f"{bot.web.public_url}/?channel={scene.channel.id}&lang={language}")
        await page.wait("document.body.dataset.status === 'refused'")
        assert await text(page, ".notice-card h2") == t(language, "seat.sign_in_to_watch")
        assert await page.js("return document.querySelector('.notice-card a.sign-in');")
        assert words["connecting"] not in await page.js("return document.body.innerText;")
        await every_width(page, None, tmp_path)


@pytest.mark.parametrize("channel", ["abc", "", "12345678901234567890123"])
async def test_a_bad_link_says_so(fake_discord, make_web_bot, pages, language, channel, tmp_path):
    bot = make_web_bot()
    Scene(fake_discord, bot.discord, names=NAMES)
    words = labels(language)
    async with fake_discord.connected(bot.discord):
        page = await pages(360, 640)
        await page.open(f"{bot.web.public_url}/?channel={channel}&lang={language}")
        await page.wait("document.body.dataset.status === 'none'")
        assert await text(page, ".notice-card h2") == words["bad_link"]
        shown = await page.js("return document.body.innerText;")
        assert words["connecting"] not in shown and words["offline"] not in shown
        if channel == "abc":
            await every_width(page, None, tmp_path)


async def test_a_failed_check_is_rerolled_from_the_table(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    """Advanced rules, a green fail-safe on the rocket: the accuracy die fails, the launcher's
    page says a reroll is allowed and offers it; the reroll hits."""
    bot = make_web_bot(APOPHIS_SEED="5")
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("Ada", "Brahim", rules="advanced", difficulty="easy")
        scene.arrange(
            rules="advanced",
            hands=[["2S", "9C"], ["3C"]],
            rocket=[("red", 3), ("green", 2), ("yellow", 2)],
            sequence=["2C", "2H", "2D"],
            dice=[1, 2, 6, 6],
            active=0,
        )
        table.deadline, table.remaining = None, 272.0
        bot.web.feed.changed(table)
        speaking(scene, language, *NAMES)
        ada = await pages(360, 640)
        await ada.reduce_motion()
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await ada.wait("document.body.dataset.status === 'active'")
        await ada.click(button("launch"))
        report = "window.__apophis.lastState.report"
        await ada.wait(f"{report} && {report}.open")
        assert labels(language)["reroll_open"] in await text(ada, ".report")
        await every_width(ada, None, tmp_path)
        await ada.click(button("reroll"))
        await ada.wait(f"!{report}.open")
        assert (await ada.state())["table"]["damage"] == 1
        assert t(language, "web.verdict.accuracy.ok") in await text(ada, ".report")


async def test_a_restart_is_said_in_the_bar_and_the_table_kept(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    fake_discord.gateway.identify_interval = 0
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=NAMES)
    words = labels(language)
    async with fake_discord.connected(bot.discord):
        table = await arranged_game(bot, scene, hands=[["3H", "4H"], ["QS", "2C"]], active=0)
        speaking(scene, language, *NAMES)
        ada = await pages(360, 640)
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await ada.wait("document.body.dataset.status === 'active'")
    line = "document.querySelector('.link')"
    await ada.wait(f"!{line}.hidden && {line}.textContent === {words['reconnecting']!r}")
    assert await ada.js("return document.body.dataset.screen;") == "play"
    assert await ada.js(
        "return document.querySelector('button[data-action=\"draw\"]').ariaDisabled;"
    )
    await every_width(ada, None, tmp_path)
    again = make_web_bot()
    scene.bot = again.discord
    async with fake_discord.connected(again.discord):
        await ada.wait(f"{line}.hidden", timeout=15)
        version = table.version
        await ada.click('button[data-action="draw"]:not([aria-disabled])')
        await ada.wait(f"Number(document.body.dataset.version) > {version}")
