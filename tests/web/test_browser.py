"""The live table in headless Chromium: two people play a game to its end, each in a
browser of their own with the Embedded App SDK mocked (the client's test build), against
the real bot and the fake Discord; what each page was sent; a restart; the table at a
production's build, under its Content-Security-Policy, ignoring the mock."""

from __future__ import annotations

import json

import pytest

from bot.web import server
from tests.bot.helpers import CARD, Scene, text_of
from tests.web.browser import Page, require_browser

pytestmark = pytest.mark.e2e

#: The client as built for production (the pages fixture serves the tests' build).
PRODUCTION = server.CLIENT


@pytest.fixture
async def pages(monkeypatch):
    """Browsers, each its own person's, shown the client's test build (where ?sdk=mock is
    honoured); all closed at the end."""
    require_browser()
    monkeypatch.setattr(server, "CLIENT", server.TEST_CLIENT)
    opened: list[Page] = []

    async def open_page(width: int = 1280, height: int = 800) -> Page:
        page = await Page.create(width, height)
        opened.append(page)
        return page

    yield open_page
    for page in opened:
        await page.close()


def activity_url(bot, fake, scene, name: str) -> str:
    """The table as Discord would open it for `name` in the scene's channel, the SDK mocked:
    its authorize gives a code the fake Discord issued for them."""
    code = fake.oauth.issue_code(scene[name].user)
    query = f"sdk=mock&channel={scene.channel.id}&guild={scene.guild.id}&code={code}"
    return f"{bot.web.public_url}/?{query}"


def button(action: str, arg: str | None = None) -> str:
    move = f'[data-action="{action}"]'
    return f"button{move}" + (f'[data-move$=":{arg}"]' if arg else "")


async def test_two_people_play_a_game_to_its_end_in_their_browsers(
    fake_discord, make_web_bot, pages
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob", rules="basic", difficulty="easy")
        ann, bob = await pages(), await pages()
        await ann.open(activity_url(bot, fake_discord, scene, "ann"))
        await bob.open(activity_url(bot, fake_discord, scene, "bob"))
        for page in (ann, bob):
            await page.wait("document.body.dataset.status === 'active'")

        # /draw in Discord shows in the browsers.
        version = table.version
        await scene.cmd("draw", "ann")
        for page in (ann, bob):
            await page.wait(f"Number(document.body.dataset.version) > {version}")

        # A stacked table: Ann builds, Bob fuels, Ann launches: a hit that destroys Apophis.
        scene.arrange(
            hands=[["3H", "4H", "5H", "2C", "2H", "2D", "2S"], ["KS", "QS"]],
            damage=2,
            dice=[6, 6, 6, 6],
            active=0,
        )
        bot.web.feed.changed(table)  # the stacked table shown, as a move would show it
        version = table.version
        await ann.click(button("build", "red.3"))
        await bob.wait(f"Number(document.body.dataset.version) > {version}")
        assert [s["colour"] for s in (await bob.state())["table"]["rocket"]] == ["red"]
        await bot.discord.outbox.drain()
        assert "large red" in text_of(scene.board(table)).lower()  # the board shows it

        await bob.click(button("build", "yellow.2"))
        await ann.click(button("launch"))
        for page in (ann, bob):
            await page.wait("document.body.dataset.status === 'finished'", timeout=15)
        await bot.discord.outbox.drain()
        assert "Victory" in text_of(scene.board(table))
        final = await ann.state()
        assert final["table"]["outcome"] == "destroyed"

        # What each page was sent: its own hand, never the other's; no card in public.
        for page, name in ((ann, "ann"), (bob, "bob")):
            frames = await page.received()
            states = [f for f in frames if f.get("type") == "state"]
            assert states, f"{name}'s page received no state"
            for state in states:
                you = state.get("you")
                assert you is not None and you["id"] == str(scene.id(name))
                public = {k: v for k, v in state.items() if k != "you"}
                assert not CARD.findall(json.dumps(public, ensure_ascii=False))
        errors = [e for page in (ann, bob) for e in await page.console() if e["level"] == "SEVERE"]
        assert not errors, errors


async def test_the_page_reconnects_after_a_restart(fake_discord, make_web_bot, pages):
    fake_discord.gateway.identify_interval = 0
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann",))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann")
        page = await pages()
        await page.open(activity_url(bot, fake_discord, scene, "ann"))
        await page.wait("document.body.dataset.status === 'active'")
        version = table.version
    await page.wait("window.__apophis && window.__apophis.socketOpen === false")
    line = "document.querySelector('.link')"  # said in the bar, the table still shown
    await page.wait(f"!{line}.hidden && {line}.textContent === 'Reconnecting…'")
    assert await page.js("return document.body.dataset.screen;") == "play"
    again = make_web_bot()
    scene.bot = again.discord
    async with fake_discord.connected(again.discord):
        await page.wait("window.__apophis.socketOpen === true", timeout=15)
        await page.wait(f"Number(document.body.dataset.version) === {version}")
        await page.click(button("draw"))
        await page.wait(f"Number(document.body.dataset.version) > {version}")
        assert scene.live().version > version


async def test_a_browser_watches_from_a_link_then_signs_in_to_play(
    fake_discord, make_web_bot, pages, monkeypatch
):
    """Production's build, under its Content-Security-Policy: a crafted link with the
    mock's `?sdk=mock&code=` (ann's code) signs no one in; the page watches, then signs
    its own person in (bob, the cookie carried by the socket's upgrade)."""
    monkeypatch.setattr(server, "CLIENT", PRODUCTION)
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    fake_discord.oauth.browser_user = scene["bob"].user
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob")
        page = await pages()
        await page.open(activity_url(bot, fake_discord, scene, "ann"))
        await page.wait("document.body.dataset.status === 'active'")
        assert await page.js("return !('__apophis' in window);")  # no test hook in production
        watched = await page.sent()
        assert watched["you"] is None and watched["table"]["deck"] == len(table.game.deck)
        assert not await page.js("return document.querySelector('.moves button');")
        await page.assert_accessible()  # as someone watching sees it
        await page.click("a.sign-in")  # Discord's authorization page, then back here
        mine = (await page.sent(lambda state: state["you"]))["you"]
        assert mine["id"] == str(scene.id("bob"))
        assert sorted(c["card"] for c in mine["hand"]) == sorted(table.game.hands[1])
        assert not await page.js("return document.cookie;")  # HttpOnly: not script's
        blocked = [e for e in await page.console() if "Content Security Policy" in e["message"]]
        assert not blocked, blocked
