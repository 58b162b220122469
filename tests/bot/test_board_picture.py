"""The board message carries its picture through the fake Discord (which checks every
request, multipart included, against Discord's OpenAPI description)."""

from __future__ import annotations

import email.parser
import io
import json

import discord
import pytest
from PIL import Image

from bot.pictures import board_picture, launch_picture, parts, strip
from bot.views.attachments import BOUNDARY, Picture, seat_names
from tests.bot.helpers import Scene, bot_state, text_of

pytestmark = pytest.mark.e2e


def shown_picture(message):
    """The board's one attachment, checked to be the embed's image."""
    assert len(message.attachments) == 1, message.attachments
    attachment, embed = message.attachments[0], message.embeds[0]
    assert embed["image"]["url"] == f"attachment://{attachment.filename}"
    assert attachment.filename.startswith("apophis-strip-") and attachment.filename.endswith(".png")
    return attachment


def drawn(table) -> bytes:
    """The board's strip of the table as it stands, in English (bot.pictures.strip)."""
    view = table.game.public_view()
    return board_picture.strip_drawn(board_picture.shown(view, "en", seat_names(table, view)))


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_board_carries_the_picture_of_the_table(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(
        hands=[["2C", "3C", "4C", "5H", "6H"], ["7D"]],
        rocket=[("red", 3), ("blue", 2)],
        sequence=["9S"],
        damage=1,
    )
    await scene.cmd("launch", "ann", cards="2C 5H")  # the outbox edits the board
    await bot.outbox.drain()
    attachment = shown_picture(scene.board(table))
    view = table.game.public_view()
    assert seat_names(table, view) == ("ann", "bob")  # the people's names on their seats
    assert attachment.content == drawn(table)  # the strip: the table and the seats
    assert attachment.description == board_picture.describe(view, "en", ("ann", "bob"))
    assert "hands: ann (3 cards), bob (1 card)" in attachment.description
    # The text keeps the countdown, what the game waits for and the last action; the
    # rest is in the picture (and, in words, behind Details).
    text = text_of(scene.board(table)).replace(attachment.description, "")
    assert "Apophis arrives <t:" in text and "to play" not in text  # (the strip's seats say)
    assert "-# 🔢" in text and "added 🟩 🟥 to the launch sequence (3/4)" in text
    assert "Players" not in text and "Depot" not in text and "bottom to top" not in text
    uploads = fake_discord.requests_to("/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    # through an interaction's token (others edit the players' panels, with no file)
    assert any(request.uploads == 1 for request in uploads)

    # A click on the board answers with the new board and its new picture.
    await scene.click(scene.board(table), "draw", "bob")
    attachment_after = shown_picture(scene.board(table))
    assert attachment_after.filename != attachment.filename
    assert attachment_after.content == drawn(table)
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_an_unchanged_table_uploads_nothing_new(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await scene.cmd("draw", "ann")
    await bot.outbox.drain()
    bot.outbox.board_outdated(table)  # the outbox's own write: its answer names the file,
    await bot.outbox.drain()  # and the next keeps the file still (not every other write)
    before = shown_picture(scene.board(table))
    requests = len(fake_discord.requests)
    bot.outbox.board_outdated(table)  # redraw, though the table did not change
    await bot.outbox.drain()
    edits = fake_discord.requests[requests:]
    assert len(edits) == 1 and edits[0].method == "PATCH" and edits[0].uploads == 0
    after = shown_picture(scene.board(table))
    assert after.id == before.id


async def test_a_server_can_turn_pictures_off(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    manage_guild = discord.Permissions(manage_guild=True).value
    admins = fake_discord.add_role(scene.guild, "admins", permissions=manage_guild)
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        await bot.outbox.drain()
        shown_picture(scene.board(table))
        done = await scene.cmd("apophis config", "boss", pictures=False)
        assert "Board pictures: off" in done.response_data["content"]
        await bot.outbox.drain()
        board = scene.board(table)
        assert board.attachments == [] and "image" not in board.embeds[0]
        assert "Depot" in text_of(board)  # the whole table in words again
        await scene.click(board, "draw", "ann")
        assert scene.board(table).attachments == []
        assert await bot.store.guilds_without_pictures() == {scene.guild.id}
        await scene.cmd("apophis config", "boss", pictures=True)
        await bot_state(lambda: table.pictures)
        await bot.outbox.drain()
        shown_picture(scene.board(table))


@pytest.mark.scene(names=("ann", "bob"))
async def test_without_a_token_the_channel_route_carries_the_picture(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    bot.outbox.tokens.usable = lambda token: False  # as when every token has expired
    scene.arrange(hands=[["2C", "3C"], ["4D"]])
    await scene.cmd("build", "ann", colour="green", size="small")  # (a draw: the same strip)
    await bot.outbox.drain()
    edits = fake_discord.requests_to("/channels/{channel_id}/messages/{message_id}")
    assert edits and edits[-1].method == "PATCH" and edits[-1].uploads == 1
    attachment = shown_picture(scene.board(table))
    assert attachment.content == drawn(table)


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_launch_report_is_its_picture_with_its_words_folded_then_one_line(
    fake_discord, scene
):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", rules="advanced")
    scene.arrange(
        hands=[["2C", "2H", "2D", "2S"], ["9H"]],
        rocket=[("red", 3), ("green", 2), ("yellow", 2)],
        dice=[2, 1, 6, 1],  # launch roll 4; accuracy misses; rerolled 6 hits; no damage
    )
    await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
    (report,) = await fake_discord.wait_for(
        lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
    )
    (first,) = report.attachments
    (embed,) = report.embeds
    assert embed["image"]["url"] == f"attachment://{first.filename}"
    assert "description" not in embed  # its words are the picture's description, not below
    assert first.content == launch_picture.draw_launch(table.report.events, "en")
    assert "⛽ Fuel check: fuel 2 of 7 points, needs 2" in first.description
    assert "Accuracy: 🎲 1 + Apophis's value 3 + guidance 0 = 4 (needs 7) — miss" in (
        first.description
    )
    assert "🚀 Launch! The 7-point rocket" in first.description  # plain words, names
    assert "ann may spend a fail-safe" in first.description and "<@" not in first.description
    await scene.click(report, "reroll", "ann")  # the same report goes on
    await bot.outbox.drain()
    (after,) = report.attachments
    assert report.embeds[0]["image"]["url"] == f"attachment://{after.filename}"
    assert "= 9 (needs 7) — hit" in after.description
    assert after.content == launch_picture.draw_launch(table.report.events, "en")
    reports = [m for m in scene.public() if "Launch report" in text_of(m)]
    assert reports == [report]  # one message for the launch, picture and words
    await scene.cmd("draw", "bob")  # the next player acts: the report folds to one line
    await bot.outbox.drain()
    assert (
        report.content == f"🚀 <@{scene.id('ann')}>'s launch: 🟩2 🟥3 🟨2, 7 pts → hit, no effect"
    )
    assert not report.embeds and not report.attachments and not report.components
    assert not report.deleted
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_final_board_carries_the_table_under_the_ending_s_banner(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(
        hands=[["2C", "2H", "2D", "2S"], ["9H"]],
        rocket=[("red", 3), ("yellow", 2)],
        damage=2,
        dice=[6, 6],  # accuracy 6 + 1 hits; damage 6 + 3 destroys Apophis
    )
    await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
    await bot_state(lambda: not table.open)
    await bot.outbox.drain()
    board = scene.board(table)
    attachment = shown_picture(board)
    assert attachment.content == drawn(table)
    with Image.open(io.BytesIO(attachment.content)) as picture:
        assert picture.size == (parts.WIDTH, strip.HEIGHT)  # (the words say how it ended)
    assert attachment.description.endswith(
        "the game is over: Apophis is destroyed and Earth is safe."
    )
    text = text_of(board)
    assert "**🎉 Victory! Apophis was destroyed with " in text and "Damage 3/3" in text
    told = await scene.final_story(table)  # each launch: behind its Details
    assert "5 pts → hit, damage 3/3" in told  # (the rocket was arranged, not built)
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_board_posted_again_has_the_picture_and_the_old_one_none(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    old = scene.board(table)
    shown_picture(old)
    table.messages.reposted_at = float("-inf")  # as if the board was posted long ago
    await scene.cmd("board", "bob")
    await fake_discord.wait_for(lambda: not old.embeds)  # the old board is now a stub
    await bot.outbox.drain()
    assert table.messages.board_id != old.id
    assert shown_picture(scene.board(table)).content == drawn(table)
    assert old.attachments == [] and old.content  # one line, no picture


@pytest.mark.parametrize("inside", ["png", "payload"])
def test_a_boundary_found_inside_a_part_is_made_longer(inside):
    """The multipart body stays well formed even if a part holds the usual boundary."""
    png = b"\x89PNG" + (BOUNDARY.encode() if inside == "png" else b"") + b"rest"
    payload = {"content": BOUNDARY if inside == "payload" else "hi", "attachments": []}
    content_type, body = Picture("board.png", png, "alt").form(payload)
    assert content_type != f"multipart/form-data; boundary={BOUNDARY}"
    message = email.parser.BytesParser().parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    head, file = message.get_payload()
    assert json.loads(head.get_payload(decode=True)) == payload
    assert file.get_filename() == "board.png"
    assert file.get_payload(decode=True) == png
