"""The simulated players: tables on the fake Discord, each playing games as four people would."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import sqlite3
import sys
import time
from typing import Any

import asyncpg
import orjson

from benchmarks.load.model import CHANNEL, GROUP_DM, Pending, Recipient, Tab
from benchmarks.load.routes import Refusal
from benchmarks.load.watch import Watcher
from benchmarks.web_clients import WebClients
from bot.store.postgres import is_postgresql
from devtools.fakediscord import FakeDiscord, InvalidInvocation, Member
from engine import DIFFICULTY_MINUTES, Game, Phase, Size
from engine.playout import choose_action

HAND_EVENTS = {"cards_drawn", "cards_discarded", "section_built", "sequence_extended"}
HAND_EVENTS.add("player_removed")
#: A player waits at most this long for the board to show the state before clicking.
BOARD_PATIENCE = 15.0
#: A player waits at most this long for the bot to bring their panel up to date.
PANEL_PATIENCE = 3.0


def shown_version(message) -> int:
    """The state version a board or panel message was drawn for (-1: none)."""
    for component in message.iter_components():
        parts = component.get("custom_id", "").split(":")
        if len(parts) >= 5 and parts[0] == "apo":
            return int(parts[3])
    return -1


class Load(Watcher):
    """The fake Discord, the games on it, and what the bot does to them."""

    def __init__(self, fake: FakeDiscord, args, database: str) -> None:
        super().__init__(fake)
        self.args = args
        self.database = database
        self.db: sqlite3.Connection | None = None
        self.pg: asyncpg.Pool | None = None
        self.tasks: list[asyncio.Task] = []
        #: How many tables are in play (the first ones).
        self.playing = 0
        self.setup_gate = asyncio.Semaphore(args.setup_concurrency)
        #: The sockets at the bot's live table (--web-clients), None without.
        self.web: WebClients | None = None
        #: The fake's token routes' error answers (benchmarks/load/routes.py).
        self.refusals: list[Refusal] = []
        #: Whether the bot is a member of the places (--place): then everyone has the slash
        #: commands and hand DMs come; else only the host, who installed the app, has the
        #: commands, and the players join and play by buttons alone.
        self.bot_member = args.place == CHANNEL
        if not self.bot_member:
            self.token_keep = fake.token_lifetime

    # ---------------------------------------------------------------- interactions

    async def command(self, tab: Tab, name: str, user, kind: str | None = None, **options):
        interaction = await self.fake.invoke(name, user=user.user, channel=tab.channel, **options)
        await self.answered(interaction, kind or "/" + name)
        return interaction

    async def click(self, tab: Tab, message, action: str, user, kind: str):
        custom_id = next(
            (
                c["custom_id"]
                for c in message.iter_components()
                if c.get("custom_id", "").count(":") >= 4
                and (tail := c["custom_id"].split(":", 4)[4]) is not None
                and (tail == action or tail.startswith(action + ":"))
                and not c.get("disabled")
            ),
            None,
        )
        if custom_id is None:  # not offered: no move this time (counted, as players wait)
            if self.window is not None:
                missing = f"not offered: {kind}"
                self.window.kinds[missing] = self.window.kinds.get(missing, 0) + 1
            return None
        interaction = await self.fake.click(message, custom_id, user=user.user)
        await self.answered(interaction, kind)
        return interaction

    # ------------------------------------------------------------------- the world

    def build_world(self, count: int) -> None:
        """`count` places of four people, as --place says (the first of each the host)."""
        fake, shards = self.fake, self.args.processes
        for i in range(len(self.tabs), count):
            if self.args.place == GROUP_DM:
                guild = None
                members: list[Recipient | Member] = [
                    Recipient(fake.add_user(f"p{i}-{seat}")) for seat in range(4)
                ]
                channel = fake.add_group_dm(*(m.user for m in members))
            else:
                guild = fake.add_guild(
                    f"Club {i}",
                    shard=(i % shards, shards) if shards > 1 else None,
                    bot_member=self.bot_member,
                )
                channel = fake.add_text_channel(guild, "apophis")
                members = [fake.add_member(guild, f"p{i}-{seat}") for seat in range(4)]
            if not self.bot_member:  # the host has the app on their account
                fake.install_for_user(members[0].user)
            tab = Tab(i, guild, channel, members, random.Random(i))
            for member in members:
                self.user_tab[member.user.id] = tab
            self.channel_tab[channel.id] = tab
            self.tabs.append(tab)

    async def open_db(self) -> None:
        if is_postgresql(self.database):
            self.pg = await asyncpg.create_pool(self.database, min_size=1, max_size=8)
        else:
            self.db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)

    async def close_db(self) -> None:
        if self.pg is not None:
            await self.pg.close()

    async def fetchone(self, query: str, *args: Any) -> tuple | None:
        """One row of the bot's database (queries with $1, $2... as parameters)."""
        if self.pg is not None:
            row = await self.pg.fetchrow(query, *args)
            return None if row is None else tuple(row)
        if self.db is None:
            raise RuntimeError("the bot's database is not open (open_db)")
        return self.db.execute(re.sub(r"\$\d+", "?", query), args).fetchone()

    async def row(self, game_id: int) -> tuple[str, str | None, int]:
        """A game's status, state (None for a lobby) and version."""
        found = await self.fetchone(
            "SELECT status, state, version FROM games WHERE id = $1", game_id
        )
        if found is None:
            raise RuntimeError(f"game {game_id} is not in the bot's database")
        status, state, version = found
        return status, state, version

    # ------------------------------------------------------------------- the games

    async def new_game(self, tab: Tab) -> bool:
        """/apophis new, three joins, start: as a group of friends would (by the lobby's
        Join and Start buttons where only the host has the commands)."""
        host, *others = tab.members
        rng = tab.rng
        options: dict[str, Any] = {"rules": rng.choice(("basic", "advanced"))}
        if rng.random() < self.args.short_games:
            options["minutes"] = rng.randint(1, 5)
        else:
            options["difficulty"] = rng.choice(tuple(DIFFICULTY_MINUTES))
        async with self.setup_gate:
            reply = await self.command(tab, "apophis new", host, **options)
            lobby = reply.message
            if lobby is None or lobby.ephemeral:
                return False
            tab.board_id, tab.board_version, tab.pending = lobby.id, -1, []
            self.boards[lobby.id] = tab
            tab.game_id = game_id = int(
                next(lobby.iter_components())["components"][0]["custom_id"].split(":")[2]
            )
            if not self.bot_member:
                return await self.by_buttons(tab, game_id, lobby, host, others)
            for member in others:
                await self.command(tab, "apophis join", member)
            start = await self.command(tab, "apophis start", host)
            started = start.responded and "game has started" in str(start.response_data)
            tab.started, tab.panels = started, {}
            if started:
                self.keep_panel(tab, host.user.id, start.message)
            return tab.started

    async def by_buttons(self, tab: Tab, game_id: int, lobby, host, others) -> bool:
        """The others join with the lobby's Join, the host starts with its Start: the lobby
        becomes the board (the answers update it in place)."""
        for member in others:
            await self.click(tab, lobby, "join", member, "button join")
        await self.click(tab, lobby, "start", host, "button start")
        status, _, _ = await self.row(game_id)
        tab.started, tab.panels = status == "active", {}
        return tab.started

    async def play(self, tab: Tab, first_delay: float) -> None:
        rng = tab.rng
        await asyncio.sleep(first_delay)
        while self.running:
            try:
                if tab.game_id is None and not await self.new_game(tab):
                    await asyncio.sleep(1.0)
                    continue
                await asyncio.sleep(self.args.think * rng.uniform(0.5, 1.5))
                await self.turn(tab)
            except (InvalidInvocation, LookupError) as exc:  # the board moved under us
                if self.window is not None:
                    self.window.refused += 1
                if self.args.verbose:
                    print(f"table {tab.index}: {exc}", file=sys.stderr)
            except Exception as exc:
                print(f"table {tab.index}: {type(exc).__name__}: {exc}", file=sys.stderr)
                await asyncio.sleep(1.0)

    async def turn(self, tab: Tab) -> None:
        if tab.game_id is None:
            return
        status, state, version = await self.row(tab.game_id)
        if status != "active" or state is None:
            tab.game_id = None
            return
        game = Game.restore(orjson.loads(state))
        if game.phase is Phase.RESHUFFLE or (acting := game.active_player) is None:
            return  # the bot finishes a reshuffle after 10 s (scaled); look again later
        action = choose_action(game.view_for(acting), tab.rng)
        kind = action["type"]
        player = next(m for m in tab.members if m.user.id == action["player"])
        rng = tab.rng
        if rng.random() < self.args.hand_share:  # a new panel, from the board or typed
            if (rng.random() < 0.5 or not self.bot_member) and tab.board_id is not None:
                board = self.fake.world.messages[tab.board_id]
                looked = await self.click(tab, board, "hand", player, "button hand")
            else:
                looked = await self.command(tab, "hand", player, "/hand")
            if looked is not None:
                self.keep_panel(tab, player.user.id, looked.message)
        by_command = kind not in ("reroll", "accept") and rng.random() < self.args.command_share
        by_command = by_command and self.bot_member  # (else the same move by panel)
        if by_command:
            interaction = await self.slash(tab, action, player)
            if interaction.message is not None and interaction.message.embeds:
                self.keep_panel(tab, player.user.id, interaction.message)  # answered with it
        else:
            interaction = await self.by_panel(tab, action, player, version)
        if interaction is None:
            return
        await self.applied(tab, interaction, version, player.user.id, kind)

    async def slash(self, tab: Tab, action: dict, player):
        kind = action["type"]
        if kind in ("draw", "scrap"):
            return await self.command(tab, kind, player)
        if kind == "build":
            return await self.command(
                tab, "build", player, colour=action["colour"], size=Size(action["size"]).label
            )
        return await self.command(tab, kind, player, cards=" ".join(action["cards"]))

    def keep_panel(self, tab: Tab, user_id: int, message) -> None:
        """`message` is now the player's panel (the bot keeps it current)."""
        if message is None or not message.ephemeral:
            return
        old = tab.panels.get(user_id)
        if old is not None and old.id != message.id:
            self.panels.pop(old.id, None)
        tab.panels[user_id] = message
        self.panels[message.id] = tab
        tab.panel_changed.set()

    async def panel_of(self, tab: Tab, player, version: int):
        """The player's panel showing `version`: waits for the bot to refresh it (their turn
        came), and opens a new one with My hand when there is none or it stays behind."""
        user_id = player.user.id
        deadline = time.monotonic() + PANEL_PATIENCE
        while (panel := tab.panels.get(user_id)) is not None and shown_version(panel) < version:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            tab.panel_changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(tab.panel_changed.wait(), left)
        if panel is None or shown_version(panel) < version:
            if self.window is not None and panel is not None:
                self.window.kinds["panel behind"] = self.window.kinds.get("panel behind", 0) + 1
            board_id = tab.board_id
            board = self.fake.world.messages.get(board_id) if board_id is not None else None
            opened = await self.click(tab, board, "hand", player, "panel open") if board else None
            if opened is None or opened.message is None:
                return None
            self.keep_panel(tab, user_id, opened.message)
            panel = opened.message
        return panel

    async def by_panel(self, tab: Tab, action: dict, player, version: int):
        """One click (or one select) on the player's panel (`panel_move`); a move it does
        not offer is counted ("not offered: ..."), or typed for a launch of other cards."""
        kind = action["type"]
        panel = await self.panel_of(tab, player, version)
        if panel is None:
            return None
        if kind == "discard":
            return await self.discard(tab, action, player, panel)
        move = panel_move(list(panel.iter_components()), action)
        if move is None:
            if kind == "launch":  # not the panel's cards (a higher one): typed instead
                return await self.typed_instead(tab, action, player)
            if self.window is not None:
                missing = f"not offered: panel {kind}"
                self.window.kinds[missing] = self.window.kinds.get(missing, 0) + 1
            return None
        custom_id, values = move
        if values is None:
            interaction = await self.fake.click(panel, custom_id, user=player.user)
        else:
            interaction = await self.fake.select(panel, custom_id, values, user=player.user)
        subset = kind == "launch" and values is not None
        await self.answered(interaction, f"panel {kind}" + (" subset" if subset else ""))
        return interaction

    async def discard(self, tab: Tab, action: dict, player, panel):
        """A discard on the panel: each card's button, the last one discarding them all
        (typed instead where the panel does not offer them); that last click."""
        chosen: set[str] = set()
        pressed = None
        for card in action["cards"]:
            chosen.add(card)
            custom_id = with_cards(panel, "pick", chosen) or with_cards(panel, "discard", chosen)
            if custom_id is None:  # the panel does not offer it (yet)
                return await self.typed_instead(tab, action, player)
            pressed = await self.fake.click(panel, custom_id, user=player.user)
            done = len(chosen) == len(action["cards"])
            await self.answered(pressed, "panel discard" if done else "panel discard card")
        return pressed

    async def typed_instead(self, tab: Tab, action: dict, player):
        """The move the panel does not offer, typed; None (no move this time) where the
        player has no commands (counted as "not on the panel" in the window's kinds)."""
        if self.bot_member:
            return await self.slash(tab, action, player)
        if self.window is not None:
            self.window.kinds["not on the panel"] = self.window.kinds.get("not on the panel", 0) + 1
        return None

    async def applied(self, tab: Tab, interaction, before: int, actor: int, kind: str) -> None:
        """If the bot applied the action, wait for what it causes (board, DMs; where the bot
        is no member, the board alone: hands are only in the players' panels)."""
        game_id = tab.game_id
        if game_id is None:  # the game ended under us
            return
        row = await self.fetchone(
            "SELECT actor, events FROM actions WHERE game_id = $1 AND version = $2",
            game_id,
            before + 1,
        )
        if row is None or row[0] != actor:
            if (window := self.window_at(interaction.created_at)) is not None:
                window.stale += 1
            return
        t0 = interaction.created_at
        window = self.window_at(t0)
        if window is not None:
            window.actions += 1
            if self.web is not None:  # each socket of the game owes a state this new
                self.web.expect(tab.index, t0, game_id, before + 1)
            window.kinds["action " + kind] = window.kinds.get("action " + kind, 0) + 1
        events = orjson.loads(row[1])
        dms = {e["player"] for e in events if e["kind"] in HAND_EVENTS}
        if not self.bot_member:  # no hand DMs: the hands are in the panels
            dms.clear()
        answer = interaction.message
        if actor in dms and interaction.attempts and answer is not None and answer.ephemeral:
            dms.discard(actor)  # answered with the actor's panel: it shows their hand
            if window is not None:
                window.dm_lag.append(interaction.attempts[0].at - t0)
        if window is not None:  # DMs that came before we looked
            window.dm_lag += [self.last_dm[u] - t0 for u in dms if self.last_dm.get(u, 0.0) >= t0]
        dms = {u for u in dms if self.last_dm.get(u, 0.0) < t0}
        pending = Pending(t0, before + 1, dms, last=t0)
        if tab.board_version is None or tab.board_version >= pending.version:
            pending.board_at = pending.last = max(tab.board_time, t0)
        for user in list(dms):
            if self.last_dm.get(user, 0.0) >= t0:
                dms.discard(user)
        tab.pending.append(pending)
        self._settle(tab)


def panel_move(components: list[dict], action: dict) -> tuple[str, list[str] | None] | None:
    """How a player makes `action` (a draw, build, launch or scrap: engine.playout's) on
    their panel, whose interactive `components` are these: the custom id of the button to
    press (and None), or of the select and the values to choose; None where the panel
    does not offer it. A build is chosen in the panel's select of sections (a button each
    where the panel has them instead); a launch is its Launch button where that plays the
    cards wanted, else the chosen subset in its select."""
    kind = action["type"]
    offered = {  # "draw", "launch:7H.8D", "build" (a select) -> its component
        c["custom_id"].split(":", 4)[4]: c
        for c in components
        if c.get("custom_id", "").startswith(("apo:h:", "apo:p:")) and not c.get("disabled")
    }
    moves = offered.get("build")  # the select of the turn's other moves: builds, parts, Scrap
    options = [o["value"] for o in moves["options"]] if moves is not None else []
    if kind == "build":
        section = f"{action['colour']}.{action['size']}"
        if moves is not None and section in options:
            return moves["custom_id"], [section]
        button = offered.get(f"build:{section}")
        return None if button is None else (button["custom_id"], None)
    if kind == "launch":
        wanted = sorted(card[-1] for card in action["cards"])
        for tail, button in offered.items():
            if tail.startswith("launch:") and sorted(c[-1] for c in tail[7:].split(".")) == wanted:
                return button["custom_id"], None
        for value in options:  # a launch's part, among the select of moves
            if (
                value.startswith("launch:")
                and sorted(c[-1] for c in value[7:].split(".")) == wanted
            ):
                assert moves is not None
                return moves["custom_id"], [value]
        select = offered.get("launch")
        if select is None:
            return None
        return select["custom_id"], [
            o["value"] for o in select["options"] if o["value"][-1] in wanted
        ]
    button = offered.get(kind)
    if button is None and moves is not None and kind in options:  # Scrap, in the select
        return moves["custom_id"], [kind]
    return None if button is None else (button["custom_id"], None)


def with_cards(panel, action: str, cards: set[str]) -> str | None:
    """The custom id of the panel's enabled button for `action` carrying exactly `cards`
    (a discard's card button: the cards chosen once it is pressed)."""
    for component in panel.iter_components():
        parts = component.get("custom_id", "").split(":")
        if len(parts) < 5 or parts[1] != "h" or parts[4] != action or component.get("disabled"):
            continue
        if set(parts[5].split(".") if len(parts) > 5 else ()) == cards:
            return component["custom_id"]
    return None


async def chatter(load: Load, per_minute: float) -> None:
    """The teams talk in their channels (the bot counts it to re-post buried boards)."""
    rng = random.Random(7)
    while load.running:
        await asyncio.sleep(1.0)
        tabs = load.tabs[: load.playing]
        for _ in range(round(per_minute * len(tabs) / 60 + rng.random() - 0.5)):
            tab = rng.choice(tabs)
            await load.fake.say(tab.channel, rng.choice(tab.members).user, "nice one")
