"""Headless Chromium for tests, driven by WebDriver (Selenium), from asyncio tests.

Each `Page` is a browser of its own (its own cookies and storage, as two people's
browsers are). WebDriver calls block, so they run in a thread: the bot and the fake
Discord keep running on the test's event loop meanwhile. Every WebSocket frame the page
receives is kept (Chromium's performance log), to check what each client was sent. A
page can be audited for accessibility by axe-core (`audit`, `assert_accessible`: the
client's dev dependency, in bot/web/client/node_modules), and a French one searched for
English (`assert_in_french`).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import JavascriptException, TimeoutException

from bot.views.web_state import labels
from bot.web.server import CLIENT, TEST_CLIENT
from devtools import livetable

#: axe-core's script, as npm installs it for the client (`make client` runs `npm ci`).
AXE = CLIENT.parent / "node_modules" / "axe-core" / "axe.min.js"
#: Answers with SCRIPT's value once truthy, read at each frame the page draws (WebDriver's
#: callback is the script's last argument).
WAIT = """
const done = arguments[arguments.length - 1];
const read = () => {
  const value = (SCRIPT);
  if (value) done({value});
  else requestAnimationFrame(read);
};
read();
"""
#: The impacts an audit fails on (axe's others: "moderate", "minor").
SERIOUS = ("serious", "critical")
#: Runs axe on the whole page (the script's last argument is WebDriver's callback); what
#: each violation is, and where (its first few elements), or the error axe raised.
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(
  (results) => done(results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, count: v.nodes.length,
    nodes: v.nodes.slice(0, 5).map((n) => ({
      target: n.target.flat(Infinity).join(' '), html: n.html.slice(0, 200),
    })),
  }))),
  (error) => done({error: String(error)}),
);
"""


def english_words() -> set[str]:
    """What only English says among the live table's words: each label's words between its
    placeholders (five letters or more) where French says something else, and a few of the
    game's own lines (whose turn, the verdicts, the story, the last actions)."""
    english, french = labels("en"), labels("fr")
    found = {
        part.strip()
        for key, words in english.items()
        if words != french[key]
        for part in re.split(r"\{\w+\}", words)
        if len(part.strip()) >= 5
    }
    return found | {" to play", "Victory", "enough fuel", "on target", "Last actions", " built "}


def require_browser() -> None:
    """The test skips, saying why, where Chromium or the built client (production's and the
    tests', with the SDK's mock) is missing."""
    try:
        livetable.browser()
    except livetable.NoBrowser as exc:
        pytest.skip(str(exc))
    for build in (CLIENT, TEST_CLIENT):
        if not (build / "index.html").is_file():
            pytest.skip("the web client is not built (`make client`, which `make test` runs)")


class Page:
    """One browser showing one page (see the module docstring)."""

    def __init__(self, width: int = 1280, height: int = 800) -> None:
        require_browser()
        self.driver = livetable.chromium(width, height, logs=True)
        self.width, self.height = width, height
        self.frames: list[dict[str, Any]] = []

    @classmethod
    async def create(cls, width: int = 1280, height: int = 800) -> Page:
        """A new browser (started in a thread: it takes a moment)."""
        return await asyncio.to_thread(cls, width, height)

    async def call(self, function, *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    async def open(self, url: str) -> None:
        await self.call(self.driver.get, url)
        if self.width < 500:  # a phone's viewport, whatever the window's frame takes
            await self.view_at(self.width, self.height)

    async def view_at(self, width: int, height: int) -> None:
        """Show the page in a viewport of exactly `width` × `height` CSS pixels; below 600
        px wide, as a phone does: touch, no mouse to hover with, no keyboard."""
        phone = width < 600
        await self.cdp(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone},
        )
        await self.cdp("Emulation.setTouchEmulationEnabled", {"enabled": phone})
        await self.cdp("Emulation.setEmitTouchEventsForMouse", {"enabled": phone})
        self.width, self.height = width, height

    async def reduce_motion(self, reduce: bool = True) -> None:
        """Ask for reduced motion, as someone who set it in their system does."""
        value = "reduce" if reduce else "no-preference"
        features = [{"name": "prefers-reduced-motion", "value": value}]
        await self.cdp("Emulation.setEmulatedMedia", {"features": features})

    async def cdp(self, command: str, arguments: dict[str, Any]) -> Any:
        return await self.call(self.driver.execute_cdp_cmd, command, arguments)

    async def settled(self) -> None:
        """Until the page's font is in and nothing on it moves."""
        await self.wait("document.fonts.status === 'loaded'")
        await self.wait("document.getAnimations().every((a) => a.playState !== 'running')")

    async def js(self, script: str, *args: Any) -> Any:
        return await self.call(self.driver.execute_script, script, *args)

    async def wait(self, script: str, timeout: float = 10.0) -> Any:
        """Until the JavaScript expression `script` is truthy; its value. The page itself
        reads it at each frame it draws (as Playwright's waitForFunction does), and answers
        once it holds; TimeoutError after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            await self.call(self.driver.set_script_timeout, left)
            try:
                found = await self.call(
                    self.driver.execute_async_script, WAIT.replace("SCRIPT", script)
                )
            except TimeoutException:
                break
            except JavascriptException as exc:  # the page went meanwhile: read the next one
                if "unloaded" not in str(exc):
                    raise
                continue
            return found["value"]
        raise TimeoutError(f"{script} did not hold within {timeout:g} s")

    async def click(self, css: str, timeout: float = 10.0) -> None:
        """Click the first element matching `css`, once there is one that is on (neither
        disabled nor marked off with aria-disabled, as moves that cannot work now are)."""
        found = f"document.querySelector({json.dumps(css)})"
        on = f"{found} && !{found}.disabled && {found}.getAttribute('aria-disabled') !== 'true'"
        await self.wait(on, timeout)
        await self.js(f"{found}.click();")

    async def state(self) -> dict[str, Any]:
        """The last state the page drew, read from the tests' build's hook (`__apophis`;
        production's build has none: `sent`)."""
        hook = await self.js("return window.__apophis || null;")
        assert hook is not None, "no test hook: a page of production's build is read by sent()"
        return hook["lastState"]

    async def sent(
        self, until: Callable[[dict[str, Any]], Any] = bool, timeout: float = 10.0
    ) -> dict[str, Any]:
        """The last state the page was sent, once `until` holds for it: how a page of
        production's build, which has no hook, is read (its WebSocket frames, `received`)."""
        async with asyncio.timeout(timeout):
            while True:
                states = [frame for frame in await self.received() if frame["type"] == "state"]
                if states and until(states[-1]):
                    return states[-1]
                await asyncio.sleep(0.05)  # polling the browser's log, as `wait` polls the page

    async def audit(self) -> list[dict[str, Any]]:
        """axe-core's violations on the page as it is now: for each, its rule's `id`,
        `impact`, `help`, `helpUrl`, `count` of elements, and the first `nodes` (`target`,
        a selector, and `html`). WebDriver's scripts run whatever the page's CSP says."""
        if not AXE.is_file():
            pytest.skip("axe-core is not installed (`make client` runs npm ci in bot/web/client)")
        if not await self.js("return typeof window.axe === 'object';"):
            await self.js(AXE.read_text(encoding="utf-8"))
        found = await self.call(self.driver.execute_async_script, RUN_AXE)
        if isinstance(found, dict):
            raise RuntimeError(f"axe-core failed: {found['error']}")
        return found

    async def assert_accessible(self) -> list[dict[str, Any]]:
        """Fails naming every serious or critical violation (`audit`); the lesser ones."""
        found = await self.audit()
        serious = [v for v in found if v["impact"] in SERIOUS]
        assert not serious, f"{len(serious)} serious accessibility violation(s):\n" + "\n".join(
            map(describe, serious)
        )
        return found

    async def assert_in_french(self) -> None:
        """Fails naming any English the page shows (`english_words`)."""
        shown = await self.js("return document.body.innerText;")
        english = sorted(words for words in english_words() if words in shown)
        assert not english, f"English on a French page: {english}"

    async def screenshot(self, path: Path) -> None:
        await self.call(self.driver.save_screenshot, str(path))

    async def received(self) -> list[dict[str, Any]]:
        """Every WebSocket message the page received so far (parsed JSON)."""
        logs = await self.call(self.driver.get_log, "performance")
        for entry in logs:
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.webSocketFrameReceived":
                data = message["params"]["response"]["payloadData"]
                try:
                    self.frames.append(json.loads(data))
                except ValueError:
                    continue
        return self.frames

    async def console(self) -> list[dict[str, Any]]:
        return await self.call(self.driver.get_log, "browser")

    async def close(self) -> None:
        await self.call(self.driver.quit)


def describe(violation: dict[str, Any]) -> str:
    """One violation of an audit, on a line: rule, impact, what it asks, where."""
    targets = ", ".join(node["target"] for node in violation["nodes"][:3])
    more = violation["count"] - min(3, len(violation["nodes"]))
    where = targets + (f" and {more} more" if more > 0 else "")
    return f"  {violation['id']} ({violation['impact']}): {violation['help']}: {where}"
