"""`make demo ARGS="--web"`: the demo's game served live as the web table, in a browser.

The bot serves its web table on `--web-port` (bot.web), signs people in through the fake
Discord's OAuth2 (its browser is signed in as the first person), and the demo says where
the table is, opens it in the default browser where there is one, waits a moment for it
before the host starts, and once the game is over keeps the final table served until
Enter or Ctrl-C (or `--linger` seconds). What it prints is in the game's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import threading
import time
import webbrowser

from bot.i18n.catalogs import t
from devtools.fakediscord import FakeDiscord, Member

#: The port the demo's web table listens on, unless --web-port says another.
PORT = 8750
#: With --web, the crew's pace unless given: seconds a person thinks, and the time scale.
THINK, TIME_SCALE = 1.0, 4.0


class PortTaken(Exception):
    """The web table's port is in use (another demo, or another server)."""


def check_port(port: int, language: str) -> None:
    """Raise PortTaken (saying why in `language`) when the bot could not listen on `port`
    (on this machine only)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp's server
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            raise PortTaken(
                t(language, "demo.web.port_taken", port=port, reason=exc.strerror)
            ) from None


def bot_env(fake: FakeDiscord, port: int) -> dict[str, str]:
    """The bot's settings for its web table, signing in through the fake's OAuth2."""
    return {
        "APOPHIS_WEB_PORT": str(port),
        "APOPHIS_CLIENT_ID": fake.oauth.client_id,
        "APOPHIS_CLIENT_SECRET": fake.oauth.client_secret,
    }


def table_url(port: int, channel_id: int) -> str:
    """The channel's live table, as the bot's `/apophis table` link gives it."""
    return f"http://localhost:{port}/?channel={channel_id}"


async def show(port: int, channel_id: int, person: Member, wait: float, language: str) -> str:
    """Say where the table is (in `language`), open it in a browser, and give the viewer
    `wait` seconds."""
    url = table_url(port, channel_id)
    sign_in = f"http://localhost:{port}/auth/login?channel={channel_id}"
    print(t(language, "demo.web.table", url=url), flush=True)
    print(f"  ({t(language, 'demo.web.sign_in', name=person.user.name, url=sign_in)})", flush=True)
    open_in_browser(url)
    if wait > 0:
        print(f"  {t(language, 'demo.web.starts_in', seconds=f'{wait:g}')}", flush=True)
        await asyncio.sleep(wait)
    return url


def open_in_browser(url: str) -> bool:
    """Open `url` in the default browser, where there is a graphical one (never a text
    browser in this terminal, which would hold it); whether one was asked to."""
    graphical = sys.platform in ("darwin", "win32") or any(
        os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")
    )
    if not graphical:
        return False
    try:
        return webbrowser.open(url)
    except webbrowser.Error:
        return False


async def linger(seconds: float | None, language: str) -> float:
    """Keep the final table served: `seconds` (None: no limit), ended early by Enter (in a
    terminal) or Ctrl-C, saying so in `language`. Ctrl-C here ends the wait, not the demo:
    its page is still written. The seconds it waited."""
    if seconds is not None and seconds <= 0:
        return 0.0
    began = time.monotonic()
    loop = asyncio.get_running_loop()
    enter: asyncio.Future[None] = loop.create_future()
    terminal = sys.stdin is not None and sys.stdin.isatty()
    if terminal:
        threading.Thread(target=_wait_for_enter, args=(loop, enter), daemon=True).start()
    keys = t(language, "demo.web.enter") if terminal else "Ctrl-C"
    said = (
        t(language, "demo.web.linger", keys=keys)
        if seconds is None
        else t(language, "demo.web.linger_for", keys=keys, seconds=f"{seconds:g}")
    )
    print(said, flush=True)
    try:
        async with asyncio.timeout(seconds):
            await enter
    except TimeoutError:
        pass
    except asyncio.CancelledError:  # Ctrl-C: asyncio.run cancels the main task
        task = asyncio.current_task()
        if task is None or task.uncancel() > 0:
            raise  # cancelled for another reason as well
        print(flush=True)  # past the terminal's ^C
    return time.monotonic() - began


def _wait_for_enter(loop: asyncio.AbstractEventLoop, enter: asyncio.Future[None]) -> None:
    """In a thread of its own (a blocked read of stdin must not hold the event loop)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stdin.readline()

    def pressed() -> None:
        if not enter.done():
            enter.set_result(None)

    with contextlib.suppress(RuntimeError):  # the loop is closed: the demo ended first
        loop.call_soon_threadsafe(pressed)
