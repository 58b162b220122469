"""Playing the bot through the fake Discord, as players would, and reading what they saw."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sqlite3
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

from bot.discord.client import ApophisBot
from bot.table import Table
from devtools.fakediscord import FakeDiscord
from devtools.fakediscord.layout import TEXT_DISPLAY, walk
from devtools.processes import spawn_bot_process
from engine import card_label
from engine.crew import decide
from tests.engine.helpers import table as position

#: A card of a hand written as a person reads it ("7♥", "10 ♣") or as a code ("7H").
CARD = re.compile(r"(?<![\w<@#&:])(?:10|[2-9JQK])(?:\s?[♣♥♦♠]|[CHDS](?![\w]))")


class Recipient(SimpleNamespace):
    """Someone in a group DM, read as a server's member is (`.user`): there is no server."""


class Scene:
    """One guild, one text channel, some members, and the bot under test; or, with
    `group_dm`, a group DM of those people (the bot not in it), the first of them having
    installed the app to their account: everything goes through interactions there; or,
    with `bot_member=False`, a server that never added the bot, likewise.

    Build it before connecting the bot: the fake announces the world at connection.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        bot: ApophisBot,
        names=("ann", "bob", "cid", "dee"),
        *,
        shard: tuple[int, int] | None = None,
        group_dm: bool = False,
        bot_member: bool = True,
    ):
        self.fake, self.bot = fake, bot
        self.bot_member = bot_member
        if group_dm:
            self.guild = None
            self.members = {name: Recipient(user=fake.add_user(name)) for name in names}
            users = (m.user for m in self.members.values())
            self.channel = fake.add_group_dm(*users, shard=shard)
            fake.install_for_user(self.members[names[0]].user)
            return
        self.guild = fake.add_guild(shard=shard, bot_member=bot_member)
        self.channel = fake.add_text_channel(self.guild, "apophis")
        self.members = {name: fake.add_member(self.guild, name) for name in names}
        if not bot_member:
            fake.install_for_user(self.members[names[0]].user)

    @property
    def interactions_only(self) -> bool:
        """Whether only interactions reach the place (a group DM, a server without the bot):
        only the installer has the commands there."""
        return self.guild is None or not self.bot_member

    def __getitem__(self, name: str):
        return self.members[name]

    # ---------------------------------------------------------------- acting

    async def cmd(self, command: str, user: str, channel=None, **options: Any):
        """Invoke a slash command as `user` and wait for its first response."""
        interaction = await self.fake.invoke(
            command, user=self[user].user, channel=channel or self.channel, **options
        )
        return await interaction.wait_response()

    async def click(self, message, action: str, user: str):
        """Click the button whose custom_id ends with `:action` on `message`."""
        custom_id = button_id(message, action)
        interaction = await self.fake.click(message, custom_id, user=self[user].user)
        return await interaction.wait_response()

    async def pick(self, message, values: list[str], user: str):
        """Choose `values` in the (only) select menu of `message`."""
        select = next(c for c in message.iter_components() if c["type"] == 3)
        interaction = await self.fake.select(
            message, select["custom_id"], values, user=self[user].user
        )
        return await interaction.wait_response()

    async def new_game(self, *players: str, **options: Any) -> Table:
        """/apophis new by the first player, the others join, the host starts (where only
        interactions reach, and only the installer has the commands, by the lobby's
        buttons)."""
        if self.interactions_only:
            await self.cmd("apophis new", players[0], **options)
            await self.shown()
            for name in players[1:]:
                joined = await self.click(self.board(), "join", name)
                assert joined.response_type == 7, joined.response_data  # the lobby, updated
            started = await self.click(self.board(), "start", players[0])
            assert started.response_type == 7, started.response_data
            return self.live()
        await self.cmd("apophis new", players[0], **options)
        for name in players[1:]:
            reply = await self.cmd("apophis join", name)
            assert "You joined" in reply.response_data["content"], reply.response_data
        start = await self.cmd("apophis start", players[0], first=self[players[0]])
        assert "game has started" in answer_text(start), start.response_data
        return self.live()

    async def autopilot_off(self) -> None:
        """The server turned the autopilot off (a test of quiet players' clocks, not of it)."""
        await self.bot.store.update_guild_settings(self.guild.id, autopilot_seconds=0)
        self.bot.service.set_autopilot(self.guild.id, 0)

    async def leave_game(self, user: str):
        """`user` leaves the game in play: `/apophis leave`, then Leave on its question;
        the answer (the question, edited)."""
        question = await self.cmd("apophis leave", user)
        assert question.ephemeral and "Leave this game?" in content(question), question
        return await self.press(question.message, "leave", user)

    async def panel(self, user: str):
        """`user` opens their hand panel with the board's My hand; the panel message."""
        await self.bot.outbox.drain()
        opened = await self.click(self.board(), "hand", user)
        assert opened.ephemeral, opened.response_data
        await self.panel_noted(opened, user)
        return opened.message

    async def panel_noted(self, opened, user: str) -> None:
        """Wait until the bot took the panel `opened` answered with as `user`'s live one (the
        fake sees the answer a moment before the bot goes on), and removed their older."""
        table, player = self.live(), self.id(user)
        panels = self.bot.outbox.panels
        await bot_state(
            lambda: getattr(panels._live.get(table.id, {}).get(player), "opened_by", 0) == opened.id
        )
        await self.bot.outbox.drain()

    async def press(self, panel, action: str, user: str, arg: str | None = None):
        """Click a panel button (`action`, and its `arg` when several share the action); a
        build ("build:red.3", or "build" and "red.3") is chosen in the panel's builds select."""
        if action.startswith("build"):
            section = arg or action.partition(":")[2]
            interaction = await self.fake.select(
                panel, builds_select(panel)["custom_id"], [section], user=self[user].user
            )
            return await interaction.wait_response()
        custom_id = button_id(panel, action if arg is None else f"{action}:{arg}")
        interaction = await self.fake.click(panel, custom_id, user=self[user].user)
        return await interaction.wait_response()

    async def choose(self, panel, cards: list[str], user: str):
        """Press the card buttons of a discard on `panel`, one by one (`cards` as codes,
        "7H"; the last one needed discards them); the last answer."""
        answer = None
        for card in cards:
            (custom_id,) = [
                c["custom_id"]
                for c in panel.iter_components()
                if (":pick" in c.get("custom_id", "") or ":discard:" in c.get("custom_id", ""))
                and c.get("label") == card_label(card)
            ]
            interaction = await self.fake.click(panel, custom_id, user=self[user].user)
            answer = await interaction.wait_response()
        return answer

    # --------------------------------------------------------------- reading

    def live(self, channel=None) -> Table:
        return self.bot.service.by_channel[(channel or self.channel).id]

    def id(self, name: str) -> int:
        return self[name].user.id

    async def shown(self, channel=None):
        """The live game's board (or lobby) message, once the bot has recorded it (it does
        so just after the answer that carries it)."""
        await bot_state(lambda: self.live(channel).messages.board_id is not None)
        return self.board(self.live(channel))

    def board(self, table: Table | None = None):
        """The fake's record of a game's board message (by default, the live game's)."""
        table = table or self.live()
        return self.fake.world.messages[table.messages.board_id]

    async def final_story(self, table: Table, user: str | None = None) -> str:
        """A final board's words with its Details' (the whole story, a click away)."""
        board = self.board(table)
        details = await self.click(board, "details", user or next(iter(self.members)))
        assert details.ephemeral
        return f"{text_of(board)}\n{text_of(details.message)}"

    def public(self, channel=None) -> list:
        """Every message in the channel that everyone can see."""
        return [m for m in self.fake.messages(channel or self.channel) if not m.ephemeral]

    def private_to(self, name: str, channel=None) -> list:
        return [
            m
            for m in self.fake.messages(channel or self.channel)
            if m.ephemeral and m.visible_to == self.id(name)
        ]

    def close_panels(self, table: Table) -> None:
        """Every player's panel in `table` can no longer be edited, as once Discord answered
        that its token is dead (a panel dismissed, say): the bot drops those tokens."""
        for panel in self.bot.outbox.panels._live.get(table.id, {}).values():
            panel.token.dead = True

    def dm(self, name: str):
        """`name`'s one hand DM of the game."""
        (dm,) = self.fake.dms(self[name])
        return dm

    def hand_seen(self, name: str, hand: list[str], channel=None) -> str:
        """Where `name` sees their whole `hand`: "dm" (their hand DM shows it), or "panel"
        (their DM says it is in their panel, and their newest panel shows it); "" if neither."""
        dm = self.dm(name).content
        if all(card_label(c) in dm for c in hand):
            return "dm"
        panels = [m for m in self.private_to(name, channel) if ":h:" in str(m.components)]
        shown = text_of(panels[-1]) if panels else ""
        in_panel = "in your panel" in dm and all(card_label(c) in shown for c in hand)
        return "panel" if in_panel else ""

    def assert_no_cards_in_public(self, channel=None) -> None:
        """No card of any hand in any public message, nor in any earlier version of one."""
        for message in self.public(channel):
            for version in [*message.history, message]:
                text = version.content + json.dumps(version.embeds, ensure_ascii=False)
                text += json.dumps(version.components, ensure_ascii=False)
                found = CARD.findall(text)
                assert not found, f"card {found} in public message: {text[:300]}"

    # -------------------------------------------------------------- arranging

    def arrange(self, channel=None, **layout: Any) -> None:
        """Stack the deck: give the live game an exact position (see tests.engine.helpers).

        Like arranging a physical table before a rules demonstration; everything after
        is played through Discord.
        """
        table = self.live(channel)
        game = table.game
        layout.setdefault("players", tuple(game.players))
        layout.setdefault("rules", game.rules.value)
        layout.setdefault("active", game.active)
        table.game = position(**layout)
        table.stored = table.game.save()  # as if committed: a failed commit comes back here


async def bot_state(predicate, timeout: float = 5.0):
    """Wait until `predicate()` (on the bot's own state, which the fake cannot see) holds.

    The bot runs in this event loop: each turn of the loop lets it go on, and the
    predicate is checked after every turn.
    """
    async with asyncio.timeout(timeout):
        while not (result := predicate()):
            await asyncio.sleep(0)
    return result


async def play_as(scene: Scene, table, user: str):
    """`user`'s move, as the crew policy would play it (through slash commands)."""
    player = scene.id(user)
    action = decide(table.game.view_for(player), table.time_left(scene.bot.service.now())).action
    kind = action["type"]
    if kind == "build":
        sizes = {1: "small", 2: "medium", 3: "large"}
        return await scene.cmd("build", user, colour=action["colour"], size=sizes[action["size"]])
    if kind in ("launch", "discard"):
        return await scene.cmd(kind, user, cards=" ".join(action["cards"]))
    return await scene.cmd(kind, user)


async def time_passes(timer, predicate, *, step: float = 1.0, limit: float = 3600.0):
    """Move the game's time (a ManualTimer) on, `step` seconds at a time, until `predicate()`
    (on the bot's state: a crewmate played, a game ended) holds, at most `limit` seconds."""
    waited = 0.0
    while not (result := predicate()):
        assert waited < limit, f"not so after {limit:g} s of game time"
        await timer.advance(step)
        waited += step
    return result


@contextlib.contextmanager
def write_lock_held(database) -> Iterator[None]:
    """Another process's connection holds the database's write lock (BEGIN IMMEDIATE)."""
    other = sqlite3.connect(database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


class DiskFull:
    """Makes the store's commits of game actions fail as on a full disk while `full` is set.

    The error is injected at the store, as SQLite raises it: nothing is written.
    """

    def __init__(
        self, store, monkeypatch, refuse: Callable[[dict], bool] = lambda kw: True
    ) -> None:
        """`refuse(keyword arguments)` picks the commits that fail (by default, every one)."""
        self.full = False
        self.refused = 0
        commit = store.commit_action

        async def commit_unless_full(*args: Any, **kwargs: Any) -> int:
            if self.full and refuse(kwargs):
                self.refused += 1
                raise sqlite3.OperationalError("database or disk is full")
            return await commit(*args, **kwargs)

        monkeypatch.setattr(store, "commit_action", commit_unless_full)


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def held_up(fake, route: str, path_end: str = "") -> None:
    """Wait until the bot's request to `route` (its path ending with `path_end`) was
    answered 429 (rate_limit_next): the bot waits a minute before it tries again."""
    await fake.wait_for(
        lambda: [
            r for r in fake.requests_to(route) if r.status == 429 and r.path.endswith(path_end)
        ]
    )


async def killed(process) -> None:
    process.kill()  # SIGKILL: no clean shutdown, nothing sent that was waiting
    await process.wait()


def content(reply) -> str:
    """The content of an interaction's first response."""
    return reply.response_data["content"]


async def forged(fake, command: str, scene: Scene, user: str, channel=None, **options):
    """A slash command as a tampered client sends it (options unchecked), answered."""
    interaction = await fake.invoke(
        command, user=scene[user], channel=channel or scene.channel, forged=True, **options
    )
    return await interaction.wait_response()


def button_id(message, action: str) -> str:
    """The custom id of the component for `action` ("draw", or "build:red.1" with its arg)."""
    for component in message.iter_components():
        custom_id = component.get("custom_id", "")
        tail = custom_id.split(":", 4)[-1] if custom_id.count(":") >= 4 else ""
        if tail == action or tail.startswith(action + ":"):
            return custom_id
    present = [c.get("custom_id") for c in message.iter_components()]
    raise LookupError(f"no {action!r} button on message {message.id}: {present}")


def builds_select(message) -> dict:
    """A hand panel's select of the sections it offers to build."""
    return next(c for c in message.iter_components() if c.get("custom_id", "").endswith(":build"))


def builds_offered(message) -> list[str]:
    """The sections ("red.3") a hand panel's builds select offers (none without one)."""
    found = [c for c in message.iter_components() if c.get("custom_id", "").endswith(":build")]
    values = [o["value"] for select in found for o in select["options"]]
    return [v for v in values if "." in v and ":" not in v]  # (not a launch's part, nor Scrap)


def enabled(message, action: str) -> bool:
    """Whether the button for `action` (see `button_id`) on `message` can be clicked (not
    when the message leaves it out: a hand panel shows only the moves open now)."""
    try:
        custom_id = button_id(message, action)
    except LookupError:
        return False
    button = next(c for c in message.iter_components() if c.get("custom_id") == custom_id)
    return not button.get("disabled", False)


def answer_text(interaction) -> str:
    """The text of an interaction's first response as it was sent (content and embeds),
    whatever edits its message had since: a panel answered with a move's note may be
    redrawn at once when the turn passes."""
    data = interaction.response_data or {}
    sent = SimpleNamespace(
        content=data.get("content") or "",
        embeds=data.get("embeds") or [],
        components=data.get("components") or [],
    )
    return text_of(sent)


def text_of(message) -> str:
    """A message's content, embed text, its pictures' descriptions (a launch report's words)
    and TextDisplays (a Components V2 message's words, in the order they show), for
    assertions."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    parts += [a.description for a in getattr(message, "attachments", []) if a.description]
    parts += [c["content"] for c in walk(message.components) if c.get("type") == TEXT_DISPLAY]
    return "\n".join(p for p in parts if p)


def note_of(message) -> str:
    """A hand panel's note: the TextDisplay above its hand and status ("" when it has none)."""
    top = [c["content"] for c in message.components if c.get("type") == TEXT_DISPLAY]
    return top[0] if len(top) == 2 else ""


async def start_bot_process(
    fake: FakeDiscord, database, *, timeout: float = 20, **settings: str
) -> asyncio.subprocess.Process:
    """`python -m bot` in its own process, on `database`, connected to the fake and ready.

    `settings` are more environment variables (APOPHIS_SHARD_IDS="0-1", ...). Its stderr
    (the log, at INFO) stays readable from `process.stderr`.
    """
    process = await spawn_bot_process(fake, database, **settings)
    while b"ready: logged in" not in (
        line := await asyncio.wait_for(process.stderr.readline(), timeout)
    ):
        assert line, "the bot process stopped before it was ready"
    return process
