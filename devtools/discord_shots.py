"""Pictures of the bot's Discord messages as a phone and a desktop show them, in both languages.

Each scene plays the real bot, in this process, on the fake Discord (a fresh server and
database each, the game's time standing still), as people would: slash commands, buttons
and menus. At each state worth a picture, what one person sees (the channel and their own
private messages, each in its latest version) is drawn with devtools.demo.page inside a
frame like Discord's (a top bar "# apophis", the messages at the bottom, an input bar),
written as `<state>-<lang>.html`, then shot with headless Chromium at each width as
`<state>-<width>-<lang>.png` (re-encoded smaller with Pillow when over `SMALL` bytes).

    .venv/bin/python -m devtools.discord_shots --out docs/screens/discord
    .venv/bin/python -m devtools.discord_shots --out /tmp/shots --scene lobby --no-shots
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import html
import io
import json
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from bot.app import build
from bot.config import Config
from bot.discord.client import ApophisBot
from bot.game.timer import ManualTimer
from bot.table import Table
from devtools.demo import page
from devtools.demo.record import Shown, record
from devtools.fakediscord import FakeDiscord
from devtools.livetable import chromium
from engine import Colour, Game, ScriptedRandom, Size, full_deck

LANGUAGES = ("en", "fr")
#: (width, height) in CSS pixels: a phone's, and a desktop window's.
SIZES = ((360, 740), (1280, 800))
#: Discord's top bar (the channel's name) and its input bar, as on a phone (devtools.phone).
TOP_BAR, INPUT_BAR = 120, 60
#: A picture larger than this (bytes) is re-encoded with a 256-colour palette (a third the size).
SMALL = 40_000
FRAME = (
    "body{height:100vh;display:flex;flex-direction:column;overflow:hidden;margin:0}"
    ".bar{background:#2b2d31;color:#f2f3f5;display:flex;align-items:center;padding:0 16px;"
    "flex:none;font-weight:600}.input{color:#949ba4;font-weight:400}"
    ".list{flex:1;min-height:0;overflow:hidden;display:flex;flex-direction:column}"
    ".list>:first-child{margin-top:auto}"
)
#: Scrolls the messages to their end, or to the first words holding `want` (in the middle).
SCROLL = (
    "const list=document.querySelector('.list');list.scrollTop=list.scrollHeight;"
    "if(want){const walk=document.createTreeWalker(list,NodeFilter.SHOW_TEXT);let n;"
    "while((n=walk.nextNode()))if(n.data.includes(want)){"
    "n.parentElement.scrollIntoView({block:'center'});break}}"
)
ALL_SUITS = ["2C", "2H", "2D", "2S"]


class Stage:
    """One server with its #apophis channel, some members in one language, and the bot."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: ApophisBot,
        timer: ManualTimer,
        names: Sequence[str],
        language: str,
    ):
        self.fake, self.bot, self.timer, self.language = fake, bot, timer, language
        self.guild = fake.add_guild("Apophis", preferred_locale=language)
        self.channel = fake.add_text_channel(self.guild, "apophis")
        self.members = {name: fake.add_member(self.guild, name) for name in names}
        for member in self.members.values():
            member.user.locale = language

    async def cmd(self, command: str, user: str, **options: Any):
        """`user`'s slash command, answered."""
        asked = await self.fake.invoke(
            command, user=self.members[user].user, channel=self.channel, **options
        )
        reply = await asked.wait_response()
        await self.bot.outbox.drain()
        return reply

    async def click(self, message, action: str, user: str):
        """`user` clicks the control of `message` whose custom id ends with `:action`."""
        custom_id = next(
            c["custom_id"]
            for c in message.iter_components()
            if c.get("custom_id", "").split(":", 4)[-1] == action
        )
        clicked = await self.fake.click(message, custom_id, user=self.members[user].user)
        reply = await clicked.wait_response()
        await self.bot.outbox.drain()
        return reply

    async def select(self, message, ending: str, values: list[str], user: str):
        """`user` chooses `values` in the menu of `message` whose custom id ends with `ending`."""
        menu = next(c for c in message.iter_components() if c.get("custom_id", "").endswith(ending))
        chose = await self.fake.select(message, menu["custom_id"], values, user=self.members[user])
        reply = await chose.wait_response()
        await self.bot.outbox.drain()
        return reply

    def live(self) -> Table:
        return self.bot.service.by_channel[self.channel.id]

    def board(self, table: Table | None = None):
        """A game's board (or lobby) message: by default, the live game's."""
        board_id = (table or self.live()).messages.board_id
        assert board_id is not None, "no board yet"
        return self.fake.world.messages[board_id]

    async def panel(self, user: str):
        """`user`'s hand panel, opened with the board's My hand."""
        return (await self.click(self.board(), "hand", user)).message

    def arrange(self, hands: list[list[str]], rocket: list[tuple[str, int]], **more: Any) -> None:
        """Deal the live game an exact position (the rest of the cards in the deck), as one
        sets a table before showing a rule: `damage`, and the `dice` rolled next."""
        table = self.live()
        old = table.game
        assert old is not None, "no game in play"
        game = Game.new(list(old.players), old.rules.value, seed=1, start_player=old.active_player)
        game.hands = [list(h) for h in hands]
        held = {c for h in hands for c in h}
        game.deck, game.discard_pile = [c for c in full_deck() if c not in held], []
        game.rocket = [(Colour(c), Size(s)) for c, s in rocket]
        game.builders = [None] * len(game.rocket)
        game.depot -= set(game.rocket)
        game.damage = more.get("damage", 0)
        game.rng = ScriptedRandom(more.get("dice", ()), state=99)
        table.game, table.stored = game, game.save()


class Camera:
    """Writes what one person sees, state by state, as framed HTML pages in `out`."""

    def __init__(self, stage: Stage, out: Path) -> None:
        self.stage, self.out = stage, out
        self.pages: list[Path] = []

    def snap(self, state: str, viewer: str, messages: Sequence[Any], show: str = "") -> Path:
        """The page of `state`: `messages` (by their fake records) as `viewer` sees them now,
        the newest at the bottom of the screen, or scrolled up to the first words holding
        `show` (a board's line above its picture: "🏅")."""
        stage = self.stage
        rec = record(stage.fake, stage.channel, list(stage.members.values()))
        drawn = page._Page(rec, self.out / "images", stage.language)
        latest = {s.message_id: (s, False) for s in rec.channel}
        latest |= {s.message_id: (s, True) for s in rec.private[viewer] if isinstance(s, Shown)}
        chosen = [latest[m.id] for m in messages if m.id in latest]
        body = "".join(
            drawn.entry(dataclasses.replace(s, edit=0), private=private) for s, private in chosen
        )
        input_words = html.escape(f"Message #{stage.channel.name}")
        document = (
            f'<!DOCTYPE html><html lang="{stage.language}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width">'
            f"<style>{page.STYLE}{FRAME}</style></head><body>"
            f'<div class="bar" style="height:{TOP_BAR}px"># {html.escape(stage.channel.name)}</div>'
            f'<div class="list">{body}</div>'
            f'<div class="bar input" style="height:{INPUT_BAR}px">{input_words}</div>'
            f"<script>const want={json.dumps(show)};{SCROLL}</script></body></html>"
        )
        path = self.out / f"{state}-{stage.language}.html"
        path.write_text(document, encoding="utf-8")
        self.pages.append(path)
        return path


# ---------------------------------------------------------------------------- scenes


async def lobby(stage: Stage, camera: Camera) -> None:
    """A fresh server's first lobby: the difficulty offered to a first game, and why; then
    Bob's `/apophis join` and its answer under it."""
    opened = await stage.cmd("apophis new", "ann")
    camera.snap("lobby", "ann", [opened.message], show="🌱")
    joined = await stage.cmd("apophis join", "bob")
    camera.snap("lobby-joined", "bob", [stage.board(), joined.message])


async def turn(stage: Stage, camera: Camera) -> None:
    """Ann's turn on a phone: the board and her panel together (a rocket to build on, a
    launch to make); then her draw over the hand limit, and its discard, a button a card."""
    await _two_player_game(stage)
    stage.arrange(
        hands=[["2H", "3H", "9D", "4S", "KS"], ["2C", "3C", "5C"]],
        rocket=[("red", 3), ("yellow", 2)],
    )
    stage.bot.outbox.board_outdated(stage.live())  # the board drawn as arranged
    await stage.bot.outbox.drain()
    panel = await stage.panel("ann")
    camera.snap("turn", "ann", [stage.board(), panel])
    drew = await stage.click(panel, "draw", "ann")
    camera.snap("turn-discard", "ann", [stage.board(), drew.message])


async def signal(stage: Stage, camera: Camera) -> None:
    """Bob says "I'll build ♥" from his panel's Say menu, out of turn: his panel's note, and
    the board's line; then the board's Details with it beside his seat."""
    await _two_player_game(stage)
    panel = await stage.panel("bob")
    chose = await stage.select(panel, ":say", ["build.red"], "bob")
    camera.snap("signal-panel", "bob", [chose.message])
    camera.snap("signal-board", "bob", [stage.board()], show="💬")
    details = await stage.click(stage.board(), "details", "bob")
    camera.snap("signal-details", "bob", [details.message])


async def drop_in(stage: Stage, camera: Camera) -> None:
    """Cid, not seated, presses the board's Join while a crewmate holds a seat: the board
    offering it, then its line and Cid's private panel with the seat's hand."""
    lobby_message = (await stage.cmd("apophis new", "ann")).message
    await stage.click(lobby_message, "crewadd", "ann")
    await stage.cmd("apophis start", "ann", first=stage.members["ann"])
    camera.snap("dropin-join", "cid", [stage.board()])
    joined = await stage.click(stage.board(), "join", "cid")
    camera.snap("dropin-board", "cid", [stage.board()], show="👋")
    camera.snap("dropin-panel", "cid", [joined.message])


async def leave(stage: Stage, camera: Camera) -> None:
    """Bob leaves mid-game with `/apophis leave`: its three choices; then "A crewmate takes
    my seat", his answer and the board's line."""
    await _two_player_game(stage)
    asked = await stage.cmd("apophis leave", "bob")
    camera.snap("leave-choices", "bob", [stage.board(), asked.message])
    gone = await stage.click(asked.message, "crew", "bob")
    camera.snap("leave-crewmate", "bob", [stage.board(), gone.message])
    camera.snap("leave-board", "bob", [stage.board()], show="🚪")


async def launch(stage: Stage, camera: Camera) -> None:
    """Ann's launch in a 4-player advanced game, as Bob sees it beside his panel; then the
    same report folded once Bob has drawn."""
    await stage.cmd("apophis new", "ann", rules="advanced")
    for name in ("bob", "cid", "dee"):
        await stage.cmd("apophis join", name)
    await stage.cmd("apophis start", "ann", first=stage.members["ann"])
    stage.arrange(
        hands=[[*ALL_SUITS, "9H"], ["5S", "6S", "3D"], ["5C", "6C"], ["7H"]],
        rocket=[("red", 3), ("green", 2), ("yellow", 2)],
        damage=1,
        dice=[5, 6, 6, 6],
    )
    await stage.cmd("launch", "ann", cards=" ".join(ALL_SUITS))
    board = stage.board()
    report = [m for m in stage.fake.messages(stage.channel) if not m.ephemeral and m.id != board.id]
    panel = await stage.panel("bob")
    camera.snap("launch-report", "bob", [board, *report[-1:]])
    camera.snap("launch-panel", "bob", [board, *report[-1:], panel])
    drew = await stage.cmd("draw", "bob")
    camera.snap("launch-folded", "bob", [board, *report[-1:], drew.message])


async def first_win(stage: Stage, camera: Camera) -> None:
    """Ann and Bob win at once: the final board's 🏅 line, then Ann's `/apophis profile`."""
    await stage.cmd("apophis new", "ann", difficulty="medium")
    await stage.cmd("apophis join", "bob")
    await stage.cmd("apophis start", "ann", first=stage.members["ann"])
    stage.arrange(
        hands=[[*ALL_SUITS, "3H", "4H", "5H"], ["3S", "3C"]], rocket=[], damage=2, dice=[6]
    )
    table = stage.live()
    await stage.timer.advance(20)  # a few seconds to think before each move
    await stage.cmd("build", "ann", colour="red", size="large")  # three of her four ♥
    await stage.timer.advance(20)
    await stage.cmd("build", "bob", colour="yellow", size="small")
    await stage.timer.advance(20)
    assert table.game is not None
    await stage.cmd("launch", "ann", cards=" ".join(table.game.hands[0]))  # one of each suit
    assert not table.open, "the launch did not win"
    camera.snap("final-board", "ann", [stage.board(table)], show="🏅")
    mine = await stage.cmd("apophis profile", "ann")
    camera.snap("profile", "ann", [mine.message], show="🏅")


async def _two_player_game(stage: Stage) -> None:
    await stage.cmd("apophis new", "ann")
    await stage.cmd("apophis join", "bob")
    await stage.cmd("apophis start", "ann", first=stage.members["ann"])


Scene = Callable[[Stage, Camera], Awaitable[None]]
#: Each scene, by name, with the people on its server.
SCENES: dict[str, tuple[Scene, tuple[str, ...]]] = {
    "lobby": (lobby, ("ann", "bob")),
    "turn": (turn, ("ann", "bob")),
    "signal": (signal, ("ann", "bob")),
    "dropin": (drop_in, ("ann", "cid")),
    "leave": (leave, ("ann", "bob")),
    "launch": (launch, ("ann", "bob", "cid", "dee")),
    "firsts": (first_win, ("ann", "bob")),
}


async def play(name: str, language: str, out: Path) -> list[Path]:
    """Play scene `name` in `language` on a fresh fake Discord and bot; its pages."""
    scene, names = SCENES[name]
    async with FakeDiscord() as fake:
        with tempfile.TemporaryDirectory(prefix="apophis-shots-") as tmp:
            config = Config.from_env(
                {
                    "DISCORD_TOKEN": fake.bot_token,
                    "APOPHIS_DATABASE": str(Path(tmp) / "shots.sqlite3"),
                    "DISCORD_API_BASE_URL": fake.api_base_url,
                    "DISCORD_GATEWAY_URL": fake.gateway_url,
                }
            )
            timer = ManualTimer()
            bot = build(config, guild_ready_timeout=0.05, timer=timer).discord
            assert bot is not None  # Discord's door is on unless APOPHIS_DISCORD=off
            stage = Stage(fake, bot, timer, names, language)
            camera = Camera(stage, out)
            async with fake.connected(bot):
                await scene(stage, camera)
        fake.assert_no_violations()  # every request the bot made was one Discord takes
    return camera.pages


def shoot(pages: Sequence[Path], out: Path) -> list[Path]:
    """Each page shot at each of SIZES, as `out/<state>-<width>-<lang>.png`."""
    pictures = []
    for width, height in SIZES:
        chrome = chromium(width, height)
        try:
            for html_page in pages:
                state, language = html_page.stem.rsplit("-", 1)
                picture = out / f"{state}-{width}-{language}.png"
                chrome.get(html_page.as_uri())
                picture.write_bytes(small(chrome.get_screenshot_as_png()))
                pictures.append(picture)
        finally:
            chrome.quit()
    return pictures


def small(png: bytes) -> bytes:
    """`png`, re-encoded with a 256-colour palette where it is over SMALL bytes."""
    if len(png) <= SMALL:
        return png
    from PIL import Image

    reduced = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(reduced, "PNG", optimize=True)
    return reduced.getvalue() if reduced.tell() < len(png) else png


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="where the pictures go")
    parser.add_argument("--scene", action="append", choices=list(SCENES), help="(default: all)")
    parser.add_argument("--language", action="append", choices=LANGUAGES, help="(default: both)")
    parser.add_argument("--no-shots", action="store_true", help="write the HTML pages only")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="apophis-pages-") as tmp:
        where = args.out if args.no_shots else Path(tmp)  # the pages, and their pictures
        pages = [
            html_page
            for name in args.scene or SCENES
            for language in args.language or LANGUAGES
            for html_page in asyncio.run(play(name, language, where))
        ]
        for done in pages if args.no_shots else shoot(pages, args.out):
            print(done)


if __name__ == "__main__":
    main()
