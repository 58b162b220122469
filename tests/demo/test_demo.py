"""`make demo` end to end: the real bot in its own process plays a whole game, recorded."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import zlib
from pathlib import Path

import html5lib
import pytest

from devtools.demo.record import Shown
from devtools.demo.run import Options, counted, play
from tests.bot.helpers import CARD

pytestmark = pytest.mark.e2e

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """One short game (8 minutes at 30 times real speed), shared by the tests below."""
    out = tmp_path_factory.mktemp("demo")
    options = Options(
        people=("Ada", "Brahim"), crewmates=1, difficulty="hard", time_scale=30, seed=2, out=out
    )
    return asyncio.run(play(options))


def test_the_demo_plays_a_whole_game_and_records_what_everyone_saw(demo):
    assert demo.status == "finished" and demo.outcome in ("destroyed", "deflected", "lost")
    rec = demo.record
    texts = [s.text() for s in rec.channel]
    assert any("Apophis —" in t and "rules" in t for t in texts)  # the board
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
    # What stays in the channel: the final board, which tells every launch in a line, and
    # the result, nothing more (the launch reports and the pings went with the game).
    kept = {s.message_id: s for s in rec.channel if s.gone_at is None and not s.deleted}
    kept = {i: [v for v in rec.channel if v.message_id == i][-1] for i in kept}
    (board,) = [s for s in kept.values() if "Apophis —" in s.text()]
    assert len(kept) <= 2, [s.text()[:80] for s in kept.values()]
    assert "Launches: 1. " in board.text() and "pts → " in board.text()
    assert counted(rec.pings, "ping") in demo.summary  # the mentions the channel sent

    document = demo.page.read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(document)
    channel_part = document.split("<main>")[1].split('<section class="private">')[0]
    assert "Launch report" in channel_part and not CARD.search(channel_part)
    assert "What only Ada saw" in document and "What only Brahim saw" in document


def test_a_browser_draws_the_page(demo, tmp_path):
    browser = next((b for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        pytest.skip("no headless Chromium here (Debian: apt-get install chromium)")
    shot = tmp_path / "page.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1200,800",
            f"--screenshot={shot}",
            demo.page.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert distinct_bytes(shot) > 50, "the screenshot is blank"


def distinct_bytes(png: Path) -> int:
    """How varied a PNG's pixel data is (a blank page has almost one value)."""
    data, chunks = png.read_bytes()[8:], []
    while data:
        length = int.from_bytes(data[:4], "big")
        kind, body = data[4:8], data[8 : 8 + length]
        if kind == b"IDAT":
            chunks.append(body)
        data = data[12 + length :]
    return len(set(zlib.decompress(b"".join(chunks))))
