"""The /apophis group: lobby, start, moderation, settings, rules and statistics."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import embeds, inputs
from bot.discord.answers import (
    anywhere,
    caller_of,
    clicked_board,
    needs_the_bot,
    requires,
    server_records,
    speaks,
    with_the_bot,
)
from bot.discord.clicked import clicked_message
from bot.discord.cogs.lobbies import Lobbies
from bot.discord.cogs.records import Records
from bot.discord.cogs.replays import Replays
from bot.discord.cogs.tables import LiveTable
from bot.discord.threads import Opening
from bot.errors import UserError
from bot.game.audience import look
from bot.game.autopilot import checked_delay
from bot.game.clicks import Click, command_of
from bot.game.commands import Command, End, Join, Kick, Leave, Open, Reset, Skip, Start
from bot.game.replies import reply
from bot.i18n.catalogs import languages, t
from bot.i18n.notation import STYLES
from bot.lobby_settings import BY_NAME, OPTIONS
from bot.store.records import AUTOPILOT_SECONDS
from bot.table import Table
from bot.views import attachments, components, howto, panel, render
from bot.views.embeds import stats_embed
from bot.views.narration import narrate_event
from bot.views.threads import lobby_line
from engine import events as ev

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot
    from bot.game.service import GameService
    from bot.store.records import GuildSettings

log = logging.getLogger(__name__)

#: A lobby's options (bot.lobby_settings) as /apophis new's: the choices of each that has them.
#: Difficulties name their catalog key: "medium" is also a size (bot.i18n.catalogs).
DIFFICULTY_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str(
            t("en", f"choice.difficulty.{name}"), key=f"choice.difficulty.{name}"
        ),
        value=name,
    )
    for name in BY_NAME["difficulty"].choices
]
RULES_CHOICES = [
    app_commands.Choice(name=t("en", f"choice.{name}"), value=name)
    for name in BY_NAME["rules"].choices
]
#: Each language by its own name (the choice is not translated: people look for their own).
LANGUAGE_CHOICES = [
    app_commands.Choice(name=t(language, "language.name"), value=language)
    for language in languages()
]
CARDS_CHOICES = [
    app_commands.Choice(name=t("en", f"choice.{style}"), value=style) for style in STYLES
]
#: /apophis config's autopilot option: its name and description, keyed in the catalogs.
AUTOPILOT_OPTION = {
    part: app_commands.locale_str(t("en", key), key=key)
    for part, key in (("name", "autopilot.option.name"), ("help", "autopilot.option.help"))
}
#: /apophis config's threads option: its name and description, keyed in the catalogs.
THREADS_OPTION = {
    part: app_commands.locale_str(t("en", key), key=key)
    for part, key in (("name", "thread.option.name"), ("help", "thread.option.help"))
}
NO_MENTIONS = discord.AllowedMentions.none()


# Declared everywhere (servers, DMs, group DMs; a server's install or a user's): what needs
# a server that has the bot (settings, reset, the server's statistics and leaderboard) says
# so when used elsewhere (`needs_the_bot`, `server_records`). The docstring is the group's
# description.
@anywhere
class Apophis(commands.GroupCog, Replays, Records, Lobbies, LiveTable, group_name="apophis"):
    """Open and run games; moderators can end, skip, kick and reset."""

    def __init__(self, bot: ApophisBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ---------------------------------------------------------------- lobby

    @app_commands.command(description="Open a game of Apophis in this channel.")
    @app_commands.describe(**{option.name: option.help for option in OPTIONS})
    @app_commands.choices(difficulty=DIFFICULTY_CHOICES, rules=RULES_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        difficulty: str | None = None,
        minutes: app_commands.Range[int, 1, 60] | None = None,
        rules: str | None = None,
    ) -> None:
        command = Open(difficulty=difficulty, minutes=minutes, rules=rules)
        outcome = await self.service.run(caller_of(interaction), command)
        await self.post_lobby(interaction, outcome.table)
        await self.welcome(interaction, outcome.table)

    @app_commands.command(description="Join the game forming in this channel.")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.lobby_command(interaction, Join())

    @app_commands.command(
        description="Leave this channel's game; in play, your cards are discarded."
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        table = self.service.leaving_mid_game(interaction.channel_id or 0, interaction.user.id)
        if table is None:
            await self.lobby_command(interaction, Leave())
            return
        question = components.leave_question(table, interaction.user.id, speaks(interaction))
        await interaction.response.send_message(**embeds.kwargs(question), ephemeral=True)

    async def leave_answered(self, interaction: discord.Interaction, click: Click) -> None:
        """Leave or Stay on the question a leave mid-game asked: the question becomes the
        answer (the board shows a leave)."""
        command = command_of(click)
        if command is None:
            text = t(speaks(interaction), "leave.stayed")
            await interaction.response.edit_message(content=text, view=None)
            return
        outcome = await self.service.run(caller_of(interaction), command)
        text = reply(outcome, interaction.user.id, speaks(interaction))
        await interaction.response.edit_message(content=text, view=None)
        self.bot.outbox.answered(outcome.table, interaction)

    @app_commands.command(description="Start the game (host only).")
    @app_commands.describe(first="Who plays first (random if left out)")
    async def start(
        self, interaction: discord.Interaction, first: discord.User | None = None
    ) -> None:
        opening = await self.thread_opening(interaction, "start")
        await self.lobby_command(interaction, Start(first.id if first else None, opening), opening)

    async def lobby_command(
        self, interaction: discord.Interaction, command: Command, opening: Opening | None = None
    ) -> None:
        """Join, leave, start typed: answered privately; the lobby (or board) shows it."""
        outcome = await self.service.run(caller_of(interaction), command)
        table = outcome.table
        language = speaks(interaction)
        text = reply(outcome, interaction.user.id, language)
        start = isinstance(command, Start)
        if start and table.parent_id is not None:
            await self.started_in_thread(interaction, table)
            return
        if start:  # the host's own panel, to play from at once
            said = [text, opening.note(language) if opening else None]
            await self.send_own_panel(interaction, table, "\n".join(filter(None, said)))
            return
        if isinstance(command, Join) and outcome.result is not None:  # dropped in mid-game
            await self.send_own_panel(interaction, table, text)
            return
        await interaction.response.send_message(text, ephemeral=True)
        self.bot.outbox.answered(table, interaction)
        if isinstance(command, Join):
            await self.welcome(interaction, table)

    async def send_own_panel(
        self, interaction: discord.Interaction, table: Table, note: str
    ) -> None:
        """The player's own panel as the answer, `note` at its top, to play from at once (the
        host's at the start, a member's who took a seat mid-game): their hand, privately."""
        shown = table.version
        message = panel.panel_message(table, interaction.user.id, speaks(interaction), note)
        await interaction.response.send_message(**embeds.kwargs(message), ephemeral=True)
        self.bot.outbox.answered(table, interaction, panel_of=(interaction.user.id, shown))

    async def thread_opening(self, interaction: discord.Interaction, action: str) -> Opening | None:
        """How a start may open its game's thread, on a server that has the bot and plays
        games in threads (elsewhere the bot may open none: nothing is attempted)."""
        guild_id = interaction.guild_id
        if action != "start" or guild_id is None or not with_the_bot(interaction):
            return None
        settings = await self.service.audience.settings(guild_id)
        return self.bot.outbox.threads.opening(interaction) if settings.threads else None

    async def started_in_thread(
        self, interaction: discord.Interaction, table: Table, *, clicked: bool = False
    ) -> None:
        """The game moved to its own thread as it started: what follows goes there, its
        board first; the host is pointed there (on the lobby they clicked, or privately)."""
        outbox = self.bot.outbox
        outbox.moved(table, lobby_shown=clicked)
        if clicked:
            await interaction.response.edit_message(**embeds.kwargs(lobby_line(table)))
        else:
            text = t(speaks(interaction), "thread.started", thread=f"<#{table.channel_id}>")
            await interaction.response.send_message(text, ephemeral=True)
        outbox.flush(table)

    async def lobby_button(
        self, interaction: discord.Interaction, table: Table, click: Click
    ) -> None:
        """Join / Leave / Start pressed on the lobby message: the reply redraws it."""
        opening = await self.thread_opening(interaction, click.action)
        command = command_of(click, opening)
        assert command is not None  # a lobby's button (bot.discord.cogs.play)
        outcome = await self.service.run(caller_of(interaction), command)
        if outcome.result is not None:  # took a seat of a game in progress, or left one
            text = reply(outcome, interaction.user.id, speaks(interaction))
            if isinstance(command, Join):
                await self.send_own_panel(interaction, table, text)
            else:
                await interaction.response.send_message(text, ephemeral=True)
            return
        if isinstance(command, Start) and table.parent_id is not None:
            await self.started_in_thread(interaction, table, clicked=True)
            return
        await self.show_clicked_lobby(interaction, table)
        note = opening and opening.note(speaks(interaction))
        if note:  # why the game plays here rather than in a thread of its own
            await interaction.followup.send(note, ephemeral=True)
        if isinstance(command, Join):
            await self.welcome(interaction, table)

    async def show_clicked_lobby(self, interaction: discord.Interaction, table: Table) -> None:
        """Answer a click on the lobby message (a button, a setting) with it redrawn: the
        lobby as it is now, or the game's board once it started. An older drawing of it on
        its way to Discord is waited for first; if it is slow, the answer does not draw
        it: the outbox draws the newest after it. An older state never lands after a newer."""
        board = clicked_board(interaction, table)
        if board is not None and not await self.bot.outbox.board_landed(table):
            await interaction.response.defer()
            self.bot.outbox.answered(table, interaction, deferred=board)
            return
        shown = components.drawn_version(table)
        await interaction.response.edit_message(**embeds.kwargs(attachments.board(table)))
        drawn = None if board is None else (board, shown)
        self.bot.outbox.answered(table, interaction, board=drawn)

    # ----------------------------------------------------------- moderation

    @app_commands.command(description="End this game without a result (host or moderator).")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.close_game(interaction, End())

    async def close_game(self, interaction: discord.Interaction, command: End | Reset) -> None:
        """End the channel's game without a result; log it and tell the channel."""
        before = self.service.by_channel.get(interaction.channel_id or 0)
        lobby = before is not None and before.status == "lobby"
        outcome = await self.service.run(caller_of(interaction), command)
        table, reason = outcome.table, outcome.reason
        log.info(
            "game %s %s (%s) in channel %s",
            table.id,
            reason,
            interaction.user.id,
            interaction.channel_id,
        )
        told = "told.reset" if reason == "reset" else "told.closed_lobby" if lobby else "told.ended"
        text = t(table.language, told, id=table.id, player=render.mention(interaction.user.id))
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)
        self.bot.outbox.answered(table, interaction)

    @app_commands.command(description="Skip the active player's turn (host or moderator).")
    async def skip(self, interaction: discord.Interaction) -> None:
        outcome = await self.service.run(caller_of(interaction), Skip())
        table, result = outcome.table, outcome.result
        assert result is not None
        log.info("turn skipped in game %s by %s", table.id, interaction.user.id)
        skipped = next(e.player for e in result.events if isinstance(e, ev.TurnSkipped))
        language = table.language
        skip_line = narrate_event(ev.TurnSkipped(skipped), language)
        rest = [line for line in result.lines if line != skip_line]
        by = render.mention(interaction.user.id)
        if skipped == interaction.user.id:
            said = t(language, "told.skipped_own", player=by)
        else:
            said = t(language, "told.skipped", player=by, skipped=render.mention(skipped))
        response = await interaction.response.send_message(
            "\n".join([said, *rest]), allowed_mentions=NO_MENTIONS
        )
        self.bot.outbox.answered(table, interaction, posted=getattr(response.resource, "id", None))

    @app_commands.command(description="Remove a player from this game (host or moderator).")
    @app_commands.describe(player="The player to remove; their cards go to the discard pile")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        outcome = await self.service.run(caller_of(interaction), Kick(player.id))
        table, result = outcome.table, outcome.result
        log.info("player %s removed from game %s by %s", player.id, table.id, interaction.user.id)
        by, removed = render.mention(interaction.user.id), render.mention(player.id)
        words = {"player": by, "removed": removed}
        if result is not None:  # one line says it: removed, and their cards
            removal = next(e for e in result.events if isinstance(e, ev.PlayerRemoved))
            removed_line = narrate_event(removal, table.language)
            rest = [line for line in result.lines if line != removed_line]
            said = [t(table.language, "told.removed", count=removal.cards, **words), *rest]
        else:
            said = [t(table.language, "told.removed_lobby", **words)]
        response = await interaction.response.send_message(
            "\n".join(said), allowed_mentions=NO_MENTIONS
        )
        self.bot.outbox.answered(table, interaction, posted=getattr(response.resource, "id", None))

    @app_commands.command(description="Moderators: clear this channel's game, whatever its state.")
    @needs_the_bot
    async def reset(self, interaction: discord.Interaction) -> None:
        await self.close_game(interaction, Reset())

    @app_commands.command(
        description="Server settings: moderator role, defaults, pings, pictures, language, cards."
    )
    @app_commands.describe(
        moderator_role="Members with this role may reset, end, skip and kick",
        difficulty="Default countdown for /apophis new",
        rules="Default rule set for /apophis new",
        pings="Ping a player whose turn has waited 20 s for them (on by default)",
        language="Language of the board and channel messages (default: the server's)",
        cards="Cards shown as suits (7♥) or colours (the coloured-deck edition)",
        pictures="Whether boards carry a picture of the table (on by default)",
        autopilot=AUTOPILOT_OPTION["help"],
        threads=THREADS_OPTION["help"],
    )
    @app_commands.rename(autopilot=AUTOPILOT_OPTION["name"], threads=THREADS_OPTION["name"])
    @app_commands.choices(
        difficulty=DIFFICULTY_CHOICES,
        rules=RULES_CHOICES,
        language=LANGUAGE_CHOICES,
        cards=CARDS_CHOICES,
    )
    @requires(lambda interaction: interaction.permissions.manage_guild, "error.manage_server")
    @needs_the_bot
    async def config(
        self,
        interaction: discord.Interaction,
        moderator_role: discord.Role | None = None,
        difficulty: str | None = None,
        rules: str | None = None,
        pings: bool | None = None,
        language: str | None = None,
        cards: str | None = None,
        pictures: bool | None = None,
        autopilot: app_commands.Range[int, 0, AUTOPILOT_SECONDS[1]] | None = None,
        threads: bool | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # a server that has the bot (`needs_the_bot`)
        changes = setting_changes(
            moderator_role=moderator_role,
            difficulty=difficulty,
            rules=rules,
            pings=pings,
            language=language,
            cards=cards,
            pictures=pictures,
            autopilot=autopilot,
            threads=threads,
        )
        settings = await self.saved_settings(interaction, guild_id, changes)
        self.follow_settings(guild_id, settings, changes)
        await interaction.response.send_message(
            settings_reply(speaks(interaction), settings), ephemeral=True
        )

    async def saved_settings(
        self, interaction: discord.Interaction, guild_id: int, changes: dict[str, Any]
    ) -> GuildSettings:
        """The server's settings once `changes` (GuildSettings fields) are saved, logged
        with who changed them; as they are when nothing changes."""
        audience = self.service.audience
        if not changes:
            return await audience.settings(guild_id)
        settings = await audience.update(guild_id, **changes)
        log.info(
            "settings of guild %s changed by %s: %s",
            guild_id,
            interaction.user.id,
            sorted(changes),
        )
        return settings

    def follow_settings(
        self, guild_id: int, settings: GuildSettings, changes: dict[str, Any]
    ) -> None:
        """What runs follows a server's new settings: its turn pings, and, where `changes`
        set them, its open games' language and cards, pictures and autopilot."""
        self.bot.outbox.set_pings(guild_id, settings.turn_pings)
        server_language, shown = look(settings)
        if "language" in changes or "cards" in changes:
            self.service.restyle(guild_id, server_language, shown)
        if "pictures" in changes:
            for table in self.service.set_pictures(guild_id, changes["pictures"]):
                self.bot.outbox.board_outdated(table)
        if "autopilot_seconds" in changes:
            self.service.set_autopilot(guild_id, settings.autopilot_seconds)

    # ------------------------------------------------------------- reading

    @app_commands.command(description="How to play Apophis.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    async def show_rules(self, interaction: discord.Interaction) -> None:
        """The rules' how-to, privately, in the reader's language, for the rules of the
        channel's table (basic where there is none); also the lobby's How to play."""
        table = self.service.by_channel.get(interaction.channel_id or 0)
        shown = howto.message(speaks(interaction), table.rules if table else "basic")
        await interaction.response.send_message(**embeds.kwargs(shown, new=True), ephemeral=True)

    async def rules_part(self, interaction: discord.Interaction, click: Click) -> None:
        """A part of the rules chosen in the how-to's menu: the message shows it in full
        (or the how-to again), for the rules the menu carries, in the reader's language."""
        problem = inputs.source_problem(
            click, clicked_message(interaction), interaction.user.id, None
        )
        if problem is not None:  # only from the how-to its reader was answered with
            raise UserError("howto.not_yours") if problem.key == "error.not_your_panel" else problem
        assert click.values is not None  # a menu's choice (`read_click`)
        shown = howto.message(speaks(interaction), click.action, click.values[0])
        await interaction.response.edit_message(**embeds.kwargs(shown))

    @app_commands.command(description="This server's games: wins, losses and fastest wins.")
    @server_records
    async def stats(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None  # a server's (`server_records`)
        stats = await self.service.ledger.stats(interaction.guild_id)
        embed = embeds.embed(stats_embed(stats, speaks(interaction)))
        await interaction.response.send_message(embed=embed, ephemeral=True)


def setting_changes(
    *,
    moderator_role: discord.Role | None,
    difficulty: str | None,
    rules: str | None,
    pings: bool | None,
    language: str | None,
    cards: str | None,
    pictures: bool | None,
    autopilot: int | None,
    threads: bool | None,
) -> dict[str, Any]:
    """The server's settings (GuildSettings fields) /apophis config's options change, those
    left out (None) staying as they are; UserError for an autopilot delay out of range."""
    changes: dict[str, Any] = {}
    if autopilot is not None:
        changes["autopilot_seconds"] = checked_delay(autopilot)
    if moderator_role is not None:
        changes["moderator_role_id"] = moderator_role.id
    if difficulty is not None:
        changes["default_difficulty"] = difficulty
    if rules is not None:
        changes["default_rules"] = rules
    if pings is not None:
        changes["turn_pings"] = pings
    if language is not None:
        changes.update(language=language, language_chosen=True)
    if cards is not None:
        changes["cards"] = cards
    if pictures is not None:
        changes["pictures"] = pictures
    if threads is not None:
        changes["threads"] = threads
    return changes


def settings_reply(reader: str, settings: GuildSettings) -> str:
    """/apophis config's answer in the `reader`'s language: the server's settings, each in
    words."""
    server_language, shown = look(settings)
    seconds = settings.autopilot_seconds
    autopilot_setting = t(
        reader, f"autopilot.setting.{'on' if seconds else 'off'}", seconds=seconds
    )
    threads_setting = t(reader, f"thread.setting.{'on' if settings.threads else 'off'}")
    role = f"<@&{settings.moderator_role_id}>" if settings.moderator_role_id else None
    source = "chosen" if settings.language_chosen else "server"
    return (
        t(
            reader,
            "reply.settings",
            role=role or t(reader, "reply.settings.no_role"),
            difficulty=t(reader, f"difficulty.{settings.default_difficulty}"),
            rules=t(reader, f"rules.{settings.default_rules}"),
            pings=t(reader, f"reply.settings.{'on' if settings.turn_pings else 'off'}"),
            language=t(
                reader,
                f"reply.settings.language.{source}",
                name=t(server_language, "language.name"),
            ),
            cards=t(reader, f"choice.{shown}"),
            pictures=t(reader, f"reply.settings.{'on' if settings.pictures else 'off'}"),
        )
        + f"\n{autopilot_setting}\n{threads_setting}"
    )
