"""The live table to take pictures of: the real bot with its web table against the fake
Discord, in this process, and headless Chromium to open it in."""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import App
from bot.app import build as build_bot
from bot.config import Config
from bot.table import Table
from bot.web.server import CLIENT, WebTable
from devtools import livetable
from devtools.demo.player import answered
from devtools.fakediscord import Channel, FakeDiscord, Member

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"
NAMES = ("Ada", "Brahim", "Chloé", "Dmitri")
SEED = 2
#: The Discord locale of each language the pictures are taken in (`User.locale`).
LOCALES = {"en": "en-US", "fr": "fr"}
#: True once the page's font is in and nothing on it moves (transitions included), no
#: passing note or your-turn banner showing.
SETTLED = (
    "document.fonts.status === 'loaded'"
    " && document.getAnimations().every((a) => a.playState !== 'running')"
    " && document.querySelector('.toast').hidden"
    " && document.querySelector('.turn-banner').hidden"
)


@dataclass
class LiveTable:
    """The bot with its web table, against a fake Discord, and the channel of its game."""

    fake: FakeDiscord
    bot: App
    channel: Channel
    members: list[Member]

    @property
    def web(self) -> WebTable:
        """The bot's live table."""
        if not isinstance(self.bot.web, WebTable):
            raise RuntimeError("the bot runs without its live table")
        return self.bot.web

    @property
    def url(self) -> str:
        return self.web.public_url

    def table(self) -> Table:
        return self.bot.core.service.by_channel[self.channel.id]

    def sign_in_url(self, member: Member) -> str:
        """The address at which the fake's browser signs `member` in and opens the
        channel's table (their Discord locale, as it is then, is their page's language)."""
        self.fake.oauth.browser_user = member
        return f"{self.url}/auth/login?channel={self.channel.id}"


@contextlib.asynccontextmanager
async def live_table(
    names: tuple[str, ...] = NAMES,
    seed: int = SEED,
    time_scale: float = 10.0,
    language: str = "en",
) -> AsyncIterator[LiveTable]:
    """The real bot with its web table on a free port, in this process, against a fake
    Discord with one English guild, its #apophis channel and `names` as members, who use
    Discord in `language`."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Apophis", preferred_locale="en-US")
        channel = fake.add_text_channel(guild, "apophis")
        members = [fake.add_member(guild, name) for name in names]
        for member in members:
            member.user.locale = LOCALES[language]
        with tempfile.TemporaryDirectory(prefix="apophis-table-") as folder:
            config = Config.from_env(
                {
                    "DISCORD_TOKEN": fake.bot_token,
                    "APOPHIS_DATABASE": str(Path(folder) / "apophis.sqlite3"),
                    "DISCORD_API_BASE_URL": fake.api_base_url,
                    "DISCORD_GATEWAY_URL": fake.gateway_url,
                    "APOPHIS_TIME_SCALE": str(time_scale),
                    "APOPHIS_SEED": str(seed),
                    "APOPHIS_WEB_PORT": str(livetable.free_port()),
                    "APOPHIS_CLIENT_ID": fake.oauth.client_id,
                    "APOPHIS_CLIENT_SECRET": fake.oauth.client_secret,
                }
            )
            bot = build_bot(config, guild_ready_timeout=0.05)
            assert bot.discord is not None
            async with fake.connected(bot.discord):
                yield LiveTable(fake, bot, channel, members)


async def open_game(live: LiveTable, **options: Any) -> Table:
    """The first person opens a lobby, the others join, the first starts, playing first."""
    fake, host = live.fake, live.members[0]
    await answered(await fake.invoke("apophis new", user=host, channel=live.channel, **options))
    for member in live.members[1:]:
        await answered(await fake.invoke("apophis join", user=member, channel=live.channel))
    start = await fake.invoke("apophis start", user=host, channel=live.channel, first=host)
    await answered(start)
    return live.table()


def chromium(width: int, height: int, scale: float = 1):
    """Headless Chromium at that viewport (devtools.livetable), once the client is built."""
    if not (CLIENT / "index.html").is_file():
        raise SystemExit("the web client is not built: make client")
    try:
        return livetable.chromium(width, height, scale)
    except livetable.NoBrowser as exc:
        raise SystemExit(str(exc)) from None


def wait(chrome, script: str, timeout: float = 15.0):
    """Until the JavaScript expression `script` is truthy in the page; its value."""
    end = time.monotonic() + timeout
    while not (value := chrome.execute_script(f"return ({script});")):
        if time.monotonic() > end:
            raise TimeoutError(f"the page never showed {script}")
        time.sleep(0.05)  # polling the page: nothing to wait on from here
    return value
