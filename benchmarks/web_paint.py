"""The live table's client against the issue's two targets: its size and its first paint.

Run: .venv/bin/python benchmarks/web_paint.py [--loads 10]   (after `make client`; the
paint needs Debian's chromium and chromium-driver, as the browser tests do)

1. Size: the built client's JavaScript and CSS (bot/web/client/dist/assets), each file
   gzipped (zlib's default level, as a web server or proxy compresses them), in all, and
   split into what a plain browser page loads (index.html's script and stylesheet) and
   what only the Discord Activity loads besides (the Embedded App SDK's chunk, imported
   on demand). Target: under 150 KB gzipped in all.
2. First paint from localhost in headless Chromium: the real bot with its web table, in
   this process against the fake Discord, a game under way in a channel (four people,
   a few moves), and `/?channel=<id>` opened `--loads` times as a browser page (watching,
   not signed in). Each load reads the browser's first-contentful-paint, and the time
   until the first state from the socket is drawn: the client marks the page with the
   state's status (`document.body.dataset.status`), and the next frame is painted. Cold:
   a new browser, with a fresh profile, for each load; warm: one browser, its cache
   disabled (Network.setCacheDisabled), the page loaded again. Target: under 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # devtools, from a checkout

from benchmarks.load.machine import commit, machine
from bot.web.server import CLIENT
from devtools.sample_table import chromium, live_table, open_game, wait
from engine import crew

ROOT = Path(__file__).resolve().parent.parent
SIZE_TARGET_KB = 150
PAINT_TARGET_MS = 1000
#: Kept by the page from its first instant: when it first shows a state's status, and
#: the frame after (the state drawn on screen).
TIMING = """
window.__paint = {status: null, drawn: null};
new MutationObserver((changes, observer) => {
  const status = document.body && document.body.dataset.status;
  if (!status || status === 'none' || window.__paint.status !== null) return;
  window.__paint.status = performance.now();
  requestAnimationFrame(() => requestAnimationFrame(() => {
    window.__paint.drawn = performance.now();
  }));
  observer.disconnect();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-status']});
"""
READ = """
const fcp = performance.getEntriesByName('first-contentful-paint')[0];
return {
  fcp: fcp ? fcp.startTime : null,
  status: window.__paint.status,
  drawn: window.__paint.drawn,
  resources: performance.getEntriesByType('resource').map(r => r.name),
};
"""


# ------------------------------------------------------------------------ size


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def sizes() -> None:
    assets = CLIENT / "assets"
    if not (CLIENT / "index.html").is_file():
        raise SystemExit("the web client is not built: make client")
    page = (CLIENT / "index.html").read_text(encoding="utf-8")
    on_page = set(re.findall(r'(?:src|href)="\./assets/([^"]+)"', page))
    files = sorted(p for p in assets.iterdir() if p.suffix in (".js", ".css"))
    print("1. The client's JavaScript and CSS (bot/web/client/dist/assets), gzipped:")
    rows, totals = [], {"page": [0, 0], "activity": [0, 0]}
    for path in files:
        raw = path.read_bytes()
        packed = len(gzip.compress(raw, compresslevel=6, mtime=0))
        where = "browser page" if path.name in on_page else "Activity only (SDK)"
        totals["page" if path.name in on_page else "activity"][0] += len(raw)
        totals["page" if path.name in on_page else "activity"][1] += packed
        rows.append((path.name, kb(len(raw)), kb(packed), where))
    for name, raw, packed, where in rows:
        print(f"   {name:28} {raw:>10} {packed:>10} gzipped   {where}")
    page_raw, page_gz = totals["page"]
    extra_raw, extra_gz = totals["activity"]
    all_gz = page_gz + extra_gz
    verdict = "meets" if all_gz < SIZE_TARGET_KB * 1024 else "MISSES"
    print(f"   a browser page loads    {kb(page_raw):>10} {kb(page_gz):>10} gzipped")
    print(
        f"   the Activity loads      {kb(page_raw + extra_raw):>10} {kb(all_gz):>10} gzipped"
        f"   (the page's and the SDK chunk, {kb(extra_gz)})"
    )
    print(f"   in all: {kb(all_gz)} gzipped: {verdict} the target (< {SIZE_TARGET_KB} KB)")


# ----------------------------------------------------------------------- paint


def load(chrome, url: str) -> dict:
    """One load of `url` in `chrome` (timing installed); its figures, in ms."""
    chrome.get(url)
    # The paint entry is queued a moment after the paint itself: wait for it too.
    drawn = "window.__paint && window.__paint.drawn !== null"
    painted = "performance.getEntriesByName('first-contentful-paint').length > 0"
    wait(chrome, f"{drawn} && {painted}", timeout=20)
    return chrome.execute_script(READ)


def cold(url: str) -> dict:
    chrome = chromium(1280, 800)
    try:
        chrome.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMING})
        return load(chrome, url)
    finally:
        chrome.quit()


def warm(url: str, loads: int) -> list[dict]:
    chrome = chromium(1280, 800)
    try:
        chrome.execute_cdp_cmd("Network.enable", {})
        chrome.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        chrome.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMING})
        load(chrome, url)  # the browser's own first navigation, not counted
        results = []
        for _ in range(loads):
            chrome.get("about:blank")
            results.append(load(chrome, url))
        return results
    finally:
        chrome.quit()


def summary(name: str, values: list[float]) -> str:
    worst = max(values)
    verdict = "meets" if worst < PAINT_TARGET_MS else "MISSES"
    return (
        f"   {name:34} median {statistics.median(values):6.0f} ms   max {worst:6.0f} ms"
        f"   ({verdict} < {PAINT_TARGET_MS} ms)"
    )


async def paints(loads: int) -> None:
    async with live_table(time_scale=1.0) as live:
        table = await open_game(live, rules="basic", difficulty="easy")
        for _ in range(6):  # a few moves: a table with something on it
            game = table.game
            decision = crew.decide(game.view_for(game.active_player), None)
            await live.bot.service.act(live.channel.id, game.active_player, decision.action)
        url = f"{live.url}/?channel={live.channel.id}"
        print(f"\n2. First paint of {url} (a game under way; watching), headless Chromium:")
        runs = [await asyncio.to_thread(cold, url) for _ in range(loads)]
        again = await asyncio.to_thread(warm, url, loads)
    chrome = chromium(1280, 800)
    try:
        version = chrome.capabilities.get("browserVersion", "?")
    finally:
        chrome.quit()
    print(f"   ({loads} loads each; Chromium {version})")
    for label, results in (
        ("cold (a new browser each load)", runs),
        ("warm (cache disabled)", again),
    ):
        print(f"   {label}:")
        print(summary("first contentful paint", [r["fcp"] for r in results]))
        print(summary("first state drawn", [r["drawn"] for r in results]))
    fetched = sorted({Path(name.split("?")[0]).name for r in runs for name in r["resources"]})
    sdk = [name for name in fetched if name.startswith("discord")]
    print(f"   the page fetched: {', '.join(fetched)}")
    print(f"   the SDK chunk: {'fetched' if sdk else 'not fetched'} by a browser page")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=10, help="page loads each way (10)")
    args = parser.parse_args()
    print(f"web_paint: {machine()}; commit {commit()}; {time.strftime('%Y-%m-%d %H:%M')}")
    sizes()
    asyncio.run(paints(args.loads))


if __name__ == "__main__":
    main()
