"""The game on a phone 360 × 740: the board's height as Discord's mobile client lays it out
(devtools.phone), alone and with a hand panel below it, at every move of a 4-player
advanced game in both languages, and its Details a click away."""

from __future__ import annotations

import pytest

from bot.views import panel
from devtools import phone
from tests.bot.helpers import Scene, play_as, text_of

pytestmark = pytest.mark.e2e

NAMES = ("ann", "bob", "cid", "dee")
#: The moves the board is measured after (before it was shortened, it stood 984 to 1,138
#: px tall over them, taller than the whole screen; now 446 to 507, 529 in French).
MOVES = 12
#: The hand panel's height at most, over those moves, for every player, each a first-timer
#: (their first turn suggests a move: the tallest panels). Before the panel was shortened
#: it stood 891 px at its tallest (935 in French); now 497 (519), and 52 more with table
#: talk's Say menu: 549 (571).
PANEL_MOST = 575
#: The board and a panel together, at most (they stood 1,359 px, 1,425 in French; now 965
#: and 1,009 without the Say menu, 52 more with it). Not `phone.ROOM` (560): the two
#: messages' own lines (author, the "used" line, "Only you can see this", the embed's
#: padding: 168 px) and the board's 480 × 360
#: picture (199 px) leave 193 px for the board's words and buttons and the panel's hand,
#: status and moves, which need some 380 at the least.
TOGETHER = 1065


def on_phone(message, *, ephemeral: bool = False) -> phone.Height:
    """A message the fake Discord holds, as tall as it stands on the phone."""
    pictures = {a.filename: phone.png_size(a.content) for a in message.attachments}
    body = {"content": message.content, "embeds": message.embeds, "components": message.components}
    answer = message.interaction_metadata is not None
    return phone.height(body, pictures, answer=answer, ephemeral=ephemeral)


async def four_players_advanced(scene: Scene, language: str):
    """A 4-player game with the advanced rules, dealt a rocket under way."""
    if language == "fr":
        scene.guild.preferred_locale = "fr"
        for member in scene.members.values():
            member.user.locale = "fr"
    await scene.cmd("apophis new", "ann", rules="advanced")
    for name in NAMES[1:]:
        await scene.cmd("apophis join", name)
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    scene.arrange(
        hands=[["2H", "3H", "9D", "4S", "KS"], ["2S", "3S", "5C"], ["2C", "3C", "5D"], ["7H"]],
        rocket=[("red", 3), ("yellow", 2)],
        damage=1,
    )
    return scene.live()


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_board_fits_a_phones_screen_at_every_move(fake_discord, make_bot, language):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        table = await four_players_advanced(scene, language)
        tallest = phone.Height()
        for _ in range(MOVES):
            await play_as(scene, table, NAMES[table.game.players.index(table.game.active_player)])
            await bot.outbox.drain()
            board = on_phone(scene.board(table))
            tallest = max(tallest, board, key=lambda height: height.total)
        print(f"{language}: the board at its tallest: {tallest}")
        assert tallest.total <= phone.ROOM, str(tallest)
        assert "picture" in dict(tallest.parts)  # the picture is part of it


async def test_details_show_the_whole_table_in_words_privately(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        table = await four_players_advanced(scene, "en")
        await bot.outbox.drain()
        board = text_of(scene.board(table)).replace(
            scene.board(table).attachments[0].description, ""
        )
        assert "Players" not in board and "Depot" not in board  # folded into Details
        details = await scene.click(scene.board(table), "details", "bob")
        assert details.ephemeral
        words = text_of(details.message)
        assert "Players:" in words and "Depot:" in words and "🚀 5 points" in words
        assert f"▶️ <@{scene.id('ann')}> — 5 cards · host" in words
        scene.assert_no_cards_in_public()


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_launch_makes_one_report_folded_to_one_line_by_the_next_move(
    fake_discord, make_bot, language
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        await four_players_advanced(scene, language)
        scene.arrange(
            hands=[["2C", "2H", "2D", "2S", "9H"], ["5S", "6S"], ["5C", "6C"], ["7H"]],
            rocket=[("red", 3), ("green", 2), ("yellow", 2)],
            damage=1,
            dice=[5, 6, 6, 6],  # launch roll, accuracy and damage all pass
        )
        before = {m.id for m in scene.public()}
        await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
        await bot.outbox.drain()
        (report,) = [m for m in scene.public() if m.id not in before]  # one message
        (picture,) = report.attachments
        assert "description" not in report.embeds[0] and picture.description  # words: its alt
        tall = on_phone(report).total
        await scene.cmd("draw", "bob")  # the next player acts
        await bot.outbox.drain()
        folded = {"en": "'s launch: 🟩2 🟥3 🟨2, 7 pts → hit", "fr": "Lancement de <@"}
        assert report.content.startswith("🚀") and folded[language] in report.content
        assert not report.embeds and not report.attachments and len(report.content) < 120
        assert on_phone(report).total < tall / 2  # a line or two where the picture stood
        print(f"{language}: the launch report {tall} px, folded {on_phone(report).total} px")
        scene.assert_no_cards_in_public()


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_the_board_and_a_panel_stand_on_a_phone_together(fake_discord, make_bot, language):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=NAMES)
    async with fake_discord.connected(bot):
        table = await four_players_advanced(scene, language)
        table.newcomers.update(table.game.players)  # first-timers: a first move suggested
        tallest, worst, suggested = 0, "", 0
        for _ in range(MOVES):
            await play_as(scene, table, NAMES[table.game.players.index(table.game.active_player)])
            await bot.outbox.drain()
            board = on_phone(scene.board(table))
            for player in table.game.players:  # the one to play, and those who wait
                shown = panel.panel_message(table, player, language).json()
                mine = phone.height(shown, answer=True, ephemeral=True)  # only they see it
                suggested += "🌱" in str(shown)
                assert not ("🌱" in str(shown) and "-# 🚀" in str(shown))  # one or the other
                assert mine.total <= PANEL_MOST, str(mine)
                if board.total + mine.total > tallest:
                    tallest, worst = board.total + mine.total, f"board {board}\npanel {mine}"
        print(f"{language}: board + panel at their tallest: {tallest} px\n{worst}")
        assert tallest <= TOGETHER, worst
        assert suggested  # measured with the first-move line too
