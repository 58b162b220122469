"""`make demo ARGS="--web"`: the demo's game, watched live in a real browser as the crew plays;
the page the demo wrote, drawn by the browser."""

from __future__ import annotations

import asyncio
import json
import zlib
from pathlib import Path

import pytest

from devtools.demo import web
from devtools.demo.run import Options, play
from devtools.livetable import free_port
from tests.bot.helpers import CARD
from tests.demo.layout import measured
from tests.web.browser import Page, require_browser

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: handed out first in parallel

#: Every value the page's status takes, kept by the page itself as it changes.
WATCH_STATUS = """
window.__statuses = [document.body.dataset.status];
new MutationObserver(() => {
  const now = document.body.dataset.status;
  if (now !== window.__statuses[window.__statuses.length - 1]) window.__statuses.push(now);
}).observe(document.body, {attributes: true, attributeFilter: ['data-status']});
"""


async def shown_url(opened: asyncio.Future[str], game: asyncio.Task, timeout: float = 60) -> str:
    """The live table's address, once the demo has shown it (`opened`: given the address
    the demo opens in a browser)."""
    await asyncio.wait({opened, game}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if opened.done():
        return opened.result()
    if game.done():
        game.result()  # its error, if it failed
        raise AssertionError("the demo ended without showing the table")
    raise TimeoutError(f"the demo showed no table within {timeout:g} s")


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_browser_watches_the_demo_live_and_sees_no_hand(
    tmp_path, capsys, monkeypatch, language
):
    """In French (`--language fr`, a French browser), the table shows no English word."""
    require_browser()
    asked: list[str] = []
    opened: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def open_in_browser(url: str) -> None:  # no browser of the desktop's
        asked.append(url)
        if not opened.done():
            opened.set_result(url)

    monkeypatch.setattr(web, "open_in_browser", open_in_browser)
    port = free_port()
    options = Options(
        people=("Ada", "Brahim"),
        crewmates=1,
        difficulty="hard",
        time_scale=60,  # 8 minutes of countdown in 8 seconds at most
        seed=3,
        out=tmp_path,
        web=True,
        web_port=port,
        web_wait=3,
        linger=0,
        language=language,
    )
    page = await Page.create()  # ready before the demo shows its table
    game = asyncio.create_task(play(options))
    try:
        url = await shown_url(opened, game)
        assert url == f"http://localhost:{port}/?channel={url.rsplit('=', 1)[1]}"
        assert url in capsys.readouterr().out  # and printed, to open by hand
        assert asked == [url]
        await page.open(f"{url}&lang={language}")  # as a browser set to the language asks
        await page.wait("document.body.dataset.status && document.body.dataset.status !== ''")
        await page.js(WATCH_STATUS)
        if language == "fr":
            await page.wait("document.body.dataset.status === 'active'", timeout=60)
            await page.assert_in_french()
        await page.wait("document.body.dataset.status === 'finished'", timeout=120)
        if language == "fr":
            await page.assert_in_french()
        statuses = await page.js("return window.__statuses;")
        state = await page.sent(lambda state: state["status"] == "finished")  # production's
        frames = [f for f in await page.received() if f.get("type") == "state"]
        outcome = await game
        # The page the demo wrote, drawn by the browser: not blank.
        await page.open(outcome.page.resolve().as_uri())
        shot = tmp_path / "page.png"
        await page.screenshot(shot)
        drawn = await measured(page, outcome.page.resolve().as_uri())
    finally:
        await page.close()
        outcome = await game
    # The page followed the game from its lobby (or its first moves) to its end.
    assert statuses[0] in ("lobby", "active") and statuses[-1] == "finished", statuses
    assert "active" in statuses, statuses
    assert state["table"]["outcome"] == outcome.outcome and outcome.status == "finished"
    # Watching from a link without signing in: the public view, never a hand.
    assert state["you"] is None
    assert len(frames) > 3 and all(f.get("you") is None for f in frames)
    assert not [f for f in frames if CARD.search(json.dumps(f, ensure_ascii=False))]
    # And the demo still wrote its page, which a browser draws.
    assert outcome.page.is_file() and outcome.table_url == url
    assert distinct_bytes(shot) > 50, "the screenshot of the demo's page is blank"
    for width, seen in drawn.items():  # no wider than a phone's screen, or a tablet's
        assert seen["page"] <= width and seen["widest_image"] <= width, (width, seen)


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
