"""The recorder: a game played through the fake Discord, read back and drawn as a page."""

from __future__ import annotations

import html5lib
import pytest

from devtools.demo import page
from devtools.demo.record import record
from tests.bot.helpers import CARD, Scene

pytestmark = pytest.mark.e2e


async def test_a_recorded_game_shows_the_channel_and_each_private_view(
    fake_discord, make_bot, tmp_path
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        await scene.new_game("ann", "bob", difficulty="hard")
        await scene.cmd("draw", "ann")
        await scene.cmd("hand", "bob")
        await bot.outbox.drain()
        rec = record(fake_discord, scene.channel, [scene["ann"], scene["bob"]])

    # The channel: the board posted, then edited as the game moved; nothing private.
    boards = [s for s in rec.channel if "Apophis" in s.text()]
    assert boards and boards[0].edit == 0 and any(s.edit for s in boards)
    assert all(not s.ephemeral for s in rec.channel)
    assert not [s for s in rec.channel if CARD.search(s.text())]
    assert [s.at for s in rec.channel] == sorted(s.at for s in rec.channel)
    # Each person: their hand by DM, what they did, and (bob) the private /hand reply.
    for name in ("ann", "bob"):
        assert rec.dms(name) and CARD.search(rec.dms(name)[0].text())
    assert [str(d.command) for d in rec.actions("ann")][-1] == "/draw"
    assert any(
        s.ephemeral and CARD.search(s.text()) for s in rec.private["bob"] if hasattr(s, "ephemeral")
    )
    assert rec.clicks()["ann"] >= 3  # new, start, draw

    path = page.write(rec, tmp_path / "game.html", "en", ["ann and bob"])
    document = path.read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(document)  # raises on any parse error
    assert "What only bob saw" in document and "# apophis" in document
    assert '<html lang="en">' in document and "ann used /draw" in document
    channel_part = document.split('<section class="private"')[0]
    assert not CARD.search(channel_part.split("<main>")[1])
