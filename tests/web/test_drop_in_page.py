"""Dropping in from the live table, and the lobby's first-game offer, in headless Chromium
at a phone's width (360 × 740) and a desktop's (1280 × 800), in English and French: a
member not seated sees which seat is free and Join, in view without scrolling; once they
press it, their hand is on their page, and the others read who took the seat; the lobby
opened at the first games' difficulty says why in one line."""

from __future__ import annotations

import pytest

from bot.i18n.catalogs import t
from tests.bot.helpers import Scene
from tests.web import test_browser
from tests.web.test_browser import activity_url, button
from tests.web.test_screens import speaking, text

pytestmark = pytest.mark.e2e
pages = test_browser.pages
WIDTHS = ((360, 740), (1280, 800))
JOIN = f".drop-in {button('join')}"


@pytest.fixture(params=["en", "fr"])
def language(request) -> str:
    return request.param


async def in_view(page, css: str) -> bool:
    """Whether the element is wholly on screen, below the bar, without scrolling."""
    return await page.js(
        f"const r = document.querySelector({css!r}).getBoundingClientRect();"
        " const bar = document.querySelector('.bar').getBoundingClientRect();"
        " return window.scrollY === 0 && r.top >= bar.bottom && r.bottom <= window.innerHeight;"
    )


async def test_a_member_not_seated_joins_a_game_in_play_from_the_page(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("Ada", "Cid"))
    async with fake_discord.connected(bot.discord):
        lobby = (await scene.cmd("apophis new", "Ada", difficulty="easy")).message
        await scene.click(lobby, "crewadd", "Ada")
        await scene.cmd("apophis start", "Ada", first=scene["Ada"])
        table = scene.live()
        hand = len(table.game.hands[1])
        speaking(scene, language, "Ada", "Cid")
        ada = await pages(1280, 800)
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await ada.wait("document.body.dataset.status === 'active'")
        assert not await ada.js("return !!document.querySelector('.drop-in');")  # seated
        cid = await pages(*WIDTHS[0])
        await cid.open(activity_url(bot, fake_discord, scene, "Cid"))
        await cid.wait(f"document.querySelector({JOIN!r})")
        line = t(language, "drop_in.crewmate", name="🤖 Robot 1")
        for width, height in WIDTHS:
            await cid.view_at(width, height)
            await cid.settled()
            assert await text(cid, ".drop-in .situation") == line
            assert await text(cid, JOIN) == t(language, "button.join")
            assert await in_view(cid, JOIN), width
            await cid.assert_accessible()
            await cid.screenshot(tmp_path / f"drop-in-{width}-{language}.png")
        version = table.version
        await cid.click(JOIN)
        await cid.wait(f"Number(document.body.dataset.version) > {version}")
        await cid.wait("document.querySelectorAll('.mine .hand .card').length > 0")
        assert await cid.js("return document.querySelectorAll('.mine .hand .card').length;") == hand
        assert not await cid.js("return !!document.querySelector('.drop-in');")
        assert (await cid.state())["you"]["seated"]
        told = t(language, "event.seat_taken", player="Cid", seat="🤖 Robot 1", count=hand)
        await ada.wait(f"document.querySelector('.recent').innerText.includes({told!r})")
        for width, height in WIDTHS:
            await cid.view_at(width, height)
            await cid.settled()
            await cid.screenshot(tmp_path / f"dropped-in-{width}-{language}.png")
        await ada.screenshot(tmp_path / f"drop-in-told-1280-{language}.png")


@pytest.mark.first_games
async def test_the_lobby_says_in_one_line_why_it_offers_its_difficulty(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("Ada",))
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "Ada")  # a new server: the first games' difficulty
        speaking(scene, language, "Ada")
        ada = await pages(*WIDTHS[0])
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await ada.wait("document.body.dataset.screen === 'lobby'")
        offer = (await ada.state())["offer"]
        assert offer and offer.startswith("🌱") and "**" not in offer
        for width, height in WIDTHS:
            await ada.view_at(width, height)
            await ada.settled()
            assert await text(ada, ".lobby .offer") == offer
            assert await in_view(ada, ".lobby .offer"), width
            await ada.assert_accessible()
            await ada.screenshot(tmp_path / f"lobby-offer-{width}-{language}.png")
        await ada.js(  # the host picks another
            "const s = document.querySelector(\"select[data-action='difficulty']\");"
            " s.value = 'hard'; s.dispatchEvent(new Event('change'));"
        )
        await ada.wait("window.__apophis.lastState.settings.difficulty === 'hard'")
        assert (await ada.state())["offer"] is None
        assert not await ada.js("return !!document.querySelector('.lobby .offer');")
