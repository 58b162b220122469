"""`make demo` end to end: the real bot in its own process plays a whole game, recorded."""

from __future__ import annotations

import asyncio

import html5lib
import pytest

from bot.i18n.catalogs import t
from devtools.demo.record import Shown
from devtools.demo.run import Options, play
from tests.bot.helpers import CARD

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: handed out first in parallel


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """One short game (8 minutes at 30 times real speed); a browser draws the page the
    demo of tests/demo/test_web.py writes."""
    out = tmp_path_factory.mktemp("demo")
    options = Options(
        people=("Ada", "Brahim"), crewmates=1, difficulty="hard", time_scale=30, seed=2, out=out
    )
    return asyncio.run(play(options))


def test_the_demo_plays_a_whole_game_and_records_what_everyone_saw(demo):
    assert demo.status == "finished" and demo.outcome in ("destroyed", "deflected", "lost")
    rec = demo.record
    texts = [s.text() for s in rec.channel]
    assert any("Damage " in t and " launches, " in t for t in texts)  # the final board
    assert any("Launch report" in t for t in texts)
    assert any("🤖 Robot" in t for t in texts)  # the host added one from the lobby
    assert "1 AI crewmate" in demo.summary[0]
    assert any(
        word in texts[-1] or any(word in t for t in texts[-5:])
        for word in ("Victory", "hit Earth", "hits Earth")
    )
    assert not [t for t in texts if CARD.search(t)], "a card in the channel"
    for name in ("Ada", "Brahim"):
        mine = [s for s in rec.private[name] if isinstance(s, Shown)]
        assert mine and any(CARD.search(s.text()) for s in mine)
        assert rec.actions(name)
        assert len(rec.dms(name)) == 1  # one DM a game, kept current by editing it
    # What stays in the channel: the final board, which tells the result, the launches and
    # hits in a line (each launch behind its Details: tests/bot/test_phone.py), and the
    # result, nothing more (the launch reports and the pings went with the game).
    kept = {s.message_id: s for s in rec.channel if s.gone_at is None and not s.deleted}
    kept = {i: [v for v in rec.channel if v.message_id == i][-1] for i in kept}
    (board,) = [s for s in kept.values() if " launches, " in s.text() or " launch, " in s.text()]
    assert len(kept) <= 2, [s.text()[:80] for s in kept.values()]
    assert "Damage " in board.text() and " hit" in board.text()
    assert t("en", "demo.summary.pings", count=rec.pings) in demo.summary  # the mentions sent

    document = demo.page.read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(document)
    channel_part = document.split("<main>")[1].split('<section class="private"')[0]
    assert "Launch report" in channel_part and not CARD.search(channel_part)
    assert "What only Ada saw" in document and "What only Brahim saw" in document
