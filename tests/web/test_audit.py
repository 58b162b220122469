"""The live table audited for accessibility by axe-core, in headless Chromium, at a phone's
width and a desktop's: a lobby and a game under way as a seated player sees them (the
tests' build, the SDK mocked: the lobby's buttons; a hand, its moves and the clock), and
the game watched from a link in production's build (under its Content-Security-Policy,
which WebDriver's scripts, axe among them, are not held to). Serious and critical
violations fail (`Page.assert_accessible`)."""

from __future__ import annotations

import pytest

from bot.web import server
from tests.bot.helpers import Scene
from tests.web import test_browser
from tests.web.test_browser import activity_url

pytestmark = pytest.mark.e2e
#: The browser tests' fixture: pages showing the client's test build (the SDK mocked).
pages = test_browser.pages
#: Each width audited, with its window's height.
WIDTHS = {360: 780, 1280: 800}


async def lobby(bot, scene) -> None:
    """Ann's lobby, Bob in it: her page has the lobby's buttons (start, leave, crew)."""
    await scene.cmd("apophis new", "ann")
    await scene.cmd("apophis join", "bob")


async def game(bot, scene) -> None:
    """A game under way, Ann's turn, a rocket on the pad and Apophis hit once."""
    table = await scene.new_game("ann", "bob", rules="basic", difficulty="easy")
    scene.arrange(
        hands=[["3H", "4H", "5H", "9C", "JD", "KS"], ["QS", "2C"]],
        rocket=[("red", 3), ("yellow", 2)],
        damage=1,
        counters=2,
        active=0,
    )
    bot.web.feed.changed(table)


#: Each state: how it is set, the status its page shows, and whether Ann is signed in
#: there (the tests' build) or only watches (production's: the mock's link signs no one in).
STATES = {
    "lobby": (lobby, "lobby", True),
    "game": (game, "active", True),
    "watching": (game, "active", False),
}


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("state", list(STATES))
async def test_the_table_has_no_serious_accessibility_violation(
    fake_discord, make_web_bot, pages, monkeypatch, state, width
):
    arrange, status, signed_in = STATES[state]
    if not signed_in:
        monkeypatch.setattr(server, "CLIENT", test_browser.PRODUCTION)
    bot = make_web_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        await arrange(bot, scene)
        page = await pages(width, WIDTHS[width])
        await page.open(activity_url(bot, fake_discord, scene, "ann"))
        await page.wait(f"document.body.dataset.status === {status!r}")
        you = await page.wait("window.__apophis.lastState && {you: window.__apophis.lastState.you}")
        assert (you["you"] is not None) is signed_in
        await page.assert_accessible()
        blocked = [e for e in await page.console() if "Content Security Policy" in e["message"]]
        assert not blocked, blocked
