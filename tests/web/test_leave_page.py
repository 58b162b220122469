"""Leaving a game in play, and a newcomer's first-game welcome, on the live table in
headless Chromium at a phone's width (360 × 740) and a desktop's (1280 × 800), in English
and French: Leave the game… asks first (the hand to the discard pile, a crewmate taking
the seat, or Stay, the safe answer in focus), and the others read the leave; the newcomer
alone sees the rocket that can launch with its words, until they close it."""

from __future__ import annotations

import pytest

from bot.i18n.catalogs import t
from tests.bot.helpers import Scene
from tests.web import test_browser
from tests.web.test_browser import activity_url, button
from tests.web.test_drop_in_page import WIDTHS, in_view
from tests.web.test_screens import speaking, text

pytestmark = pytest.mark.e2e
pages = test_browser.pages
LEAVE = button("leave-game")
ASKED = "document.querySelector('dialog.leave-question').open"
FIRST = ".first-rocket"


@pytest.fixture(params=["en", "fr"])
def language(request) -> str:
    return request.param


async def test_a_player_leaves_from_the_page_and_a_crewmate_takes_the_seat(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("Ada", "Bob"))
    async with fake_discord.connected(bot.discord):
        lobby = (await scene.cmd("apophis new", "Ada", difficulty="easy")).message
        await scene.click(lobby, "join", "Bob")
        await scene.cmd("apophis start", "Ada", first=scene["Ada"])
        table = scene.live()
        hand = list(table.game.hands[1])
        speaking(scene, language, "Ada", "Bob")
        ada, bob = await pages(1280, 800), await pages(*WIDTHS[0])
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await bob.open(activity_url(bot, fake_discord, scene, "Bob"))
        await bob.wait(f"document.querySelector({LEAVE!r})")
        for width, height in WIDTHS:
            await bob.view_at(width, height)
            await bob.settled()
            assert await text(bob, LEAVE) == t(language, "web.leave_game")
            await bob.click(LEAVE)
            await bob.wait(ASKED)
            asked = await bob.js(
                "return document.querySelector('dialog.leave-question').innerText;"
            )
            assert t(language, "leave.confirm", count=len(hand)) in asked
            assert t(language, "leave.confirm.crew") in asked
            assert await bob.js("return document.activeElement.dataset.answer;") == "stay"
            await bob.assert_accessible()
            await bob.screenshot(tmp_path / f"leave-question-{width}-{language}.png")
            await bob.click("dialog.leave-question [data-answer='stay']")  # changes nothing
            await bob.wait(f"!{ASKED}")
        assert len(table.game.players) == 2 and scene.id("Bob") in table.game.players
        await bob.click(LEAVE)
        await bob.wait(ASKED)
        version = table.version
        await scene.cmd("draw", "Ada")  # a move meanwhile: the question stays, Stay in focus
        await bob.wait(f"Number(document.body.dataset.version) > {version}")
        assert await bob.js(f"return {ASKED} && document.activeElement.dataset.answer;") == "stay"
        await bob.click("dialog.leave-question [data-answer='crew']")
        await bob.wait(f"!{ASKED} && !document.querySelector({LEAVE!r})")
        await bob.wait("!window.__apophis.lastState.you.seated")
        assert table.game.players == [scene.id("Ada"), -1] and table.game.hands[1] == hand
        told = t(language, "event.seat_crewed", left="Bob", player="🤖 Robot 1", count=len(hand))
        await ada.wait(f"document.querySelector('.recent').innerText.includes({told!r})")
        assert await ada.js(f"return !!document.querySelector({LEAVE!r});")  # Ada still plays
        await ada.screenshot(tmp_path / f"leave-told-1280-{language}.png")


@pytest.mark.first_games
async def test_a_newcomer_sees_the_first_rocket_once_and_closes_it(
    fake_discord, make_web_bot, pages, language, tmp_path
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("Ada", "Bob"))
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "Ada")  # Ada is welcomed in Discord
        speaking(scene, language, "Ada", "Bob")
        ada, bob = await pages(1280, 800), await pages(*WIDTHS[0])
        await ada.open(activity_url(bot, fake_discord, scene, "Ada"))
        await bob.open(activity_url(bot, fake_discord, scene, "Bob"))
        await bob.click(f".lobby {button('join')}")
        await bob.wait(f"document.querySelector({FIRST!r})")
        for width, height in WIDTHS:
            await bob.view_at(width, height)
            await bob.settled()
            assert await text(bob, f"{FIRST} p") == t(language, "first.welcome")
            alt = await bob.js(
                "return document.querySelector('.first-picture').getAttribute('aria-label');"
            )
            assert alt == (await bob.state())["you"]["first"]["alt"]
            pieces = await bob.js(
                "return [...document.querySelectorAll('.first-picture [data-piece]')]"
                ".map(p => p.dataset.piece);"
            )
            assert pieces == ["red.3", "yellow.2", "blue.2"]  # 7 points, 2 of them fuel
            played = await bob.js(
                "return document.querySelectorAll(\".first-picture [data-slot='played']\").length;"
            )
            assert played == 3
            assert await in_view(bob, FIRST), width
            await bob.assert_accessible()
            await bob.screenshot(tmp_path / f"first-rocket-{width}-{language}.png")
        await ada.wait("document.querySelectorAll('.lobby-seat.taken').length === 2")
        assert not await ada.js(f"return !!document.querySelector({FIRST!r});")  # Bob's alone
        await bob.click(f"{FIRST} {button('first-close')}")
        await bob.wait(f"!document.querySelector({FIRST!r})")
        await bob.open(activity_url(bot, fake_discord, scene, "Bob"))  # back later: not again
        await bob.wait("document.querySelectorAll('.lobby-seat.taken').length === 2")
        assert not await bob.js(f"return !!document.querySelector({FIRST!r});")
        assert "first" not in (await bob.state())["you"]


@pytest.mark.first_games
async def test_in_play_the_welcome_comes_below_the_hand_and_its_moves(
    fake_discord, make_web_bot, pages
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("Ada", "Bob"))
    async with fake_discord.connected(bot.discord):
        await scene.cmd("apophis new", "Ada")
        bob = await pages(*WIDTHS[0])
        await bob.open(activity_url(bot, fake_discord, scene, "Bob"))
        await bob.click(f".lobby {button('join')}")
        await bob.wait(f"document.querySelector({FIRST!r})")
        await scene.cmd("apophis start", "Ada", first=scene["Bob"])  # his turn first
        await bob.wait(f"document.querySelector('.mine {FIRST}')")
        await bob.settled()
        assert await in_view(bob, ".mine .moves"), "his moves are pushed off the screen"
        below = await bob.js(
            "const m = document.querySelector('.mine .moves').getBoundingClientRect();"
            f" const first = document.querySelector('.mine {FIRST}').getBoundingClientRect();"
            " return first.top >= m.bottom;"
        )
        assert below
