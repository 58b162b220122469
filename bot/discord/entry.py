"""The Activity's Entry Point command: kept by every command sync, made when missing, answered.

An application with Activities enabled has one Entry Point command (type 4,
PRIMARY_ENTRY_POINT): "Launch" in Discord's App Launcher. discord.py knows nothing of it
(`CommandTree.sync()` sends the tree's commands only, and Discord refuses a bulk overwrite
that leaves the Entry Point out), so the global commands are synced here: the application's
commands are read first, their translations included, and its Entry Point sent back with
the tree's, unchanged (its id, name, description and its translations, handler, installs
and contexts). With APOPHIS_ACTIVITY=on and none yet, ours is sent
(`entry_point`): APP_HANDLER, so Discord sends the bot the interaction and the bot launches
the Activity itself (`launch`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import discord

from bot.discord.answers import release
from bot.i18n.catalogs import DEFAULT_LANGUAGE, language_of, t

log = logging.getLogger(__name__)

#: PRIMARY_ENTRY_POINT, the command type of an Activity's Entry Point.
ENTRY_POINT_TYPE = 4
#: The Entry Point's handler: the app answers its interaction (DISCORD_LAUNCH_ACTIVITY is 2).
APP_HANDLER = 1


def entry_point() -> dict[str, Any]:
    """Our Entry Point command: in servers, the bot's DM and group DMs, for both installs."""
    words = {
        locale.value: t(language, "entry.description")
        for locale in discord.Locale
        if (language := language_of(locale)) != DEFAULT_LANGUAGE
    }
    return {
        "name": "launch",
        "description": t("en", "entry.description"),
        "description_localizations": words,
        "type": ENTRY_POINT_TYPE,
        "handler": APP_HANDLER,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }


def entry_points(commands: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The Entry Point among an application's global commands, as Discord has it (a list:
    none, or one). discord.py's types of the commands it reads know no Entry Point: read
    as JSON objects, and sent back as such."""
    return [dict(command) for command in commands if command.get("type") == ENTRY_POINT_TYPE]


async def sync_global(
    http: discord.http.HTTPClient,
    application_id: int,
    payload: list[dict[str, Any]],
    *,
    activity: bool,
) -> Sequence[Mapping[str, Any]]:
    """Overwrite the global commands with `payload` and the application's Entry Point as
    Discord has it (a bulk overwrite never drops it), or, with `activity` on and none yet,
    ours. The commands now synced.

    Should Discord refuse ours (Activities not enabled in the developer portal), the
    commands are sent again without it: the slash commands are synced all the same."""
    kept = entry_points(await _read_global(http, application_id))
    if kept or not activity:
        return _commands(await http.bulk_upsert_global_commands(application_id, payload + kept))
    try:
        sent = await http.bulk_upsert_global_commands(application_id, [*payload, entry_point()])
    except discord.HTTPException as exc:
        if exc.status != 400:
            raise
        log.warning(
            "Discord refused the Activity's Entry Point command (%s): are Activities enabled "
            "in the developer portal? Slash commands synced without it",
            exc.code,
        )
        return _commands(await http.bulk_upsert_global_commands(application_id, payload))
    synced = _commands(sent)
    log.info("made the Activity's Entry Point command (%s)", entry_points(synced)[0].get("id"))
    return synced


async def _read_global(http: discord.http.HTTPClient, application_id: int) -> list[dict[str, Any]]:
    """The application's global commands as Discord has them, translations included:
    Discord leaves them out unless asked (`with_localizations`), and a command sent back
    without them loses them (discord.py's `get_global_commands` does not ask)."""
    route = discord.http.Route(
        "GET", "/applications/{application_id}/commands", application_id=application_id
    )
    return _commands(await http.request(route, params={"with_localizations": "true"}))


def _commands(answer: object) -> list[dict[str, Any]]:
    """Discord's answer listing commands, as the JSON objects it is (discord.py types each
    kind of command apart)."""
    return cast("list[dict[str, Any]]", answer)


def is_entry_point(interaction: discord.Interaction) -> bool:
    """Whether an interaction is the Entry Point's (Launch, from the App Launcher)."""
    data: Mapping[str, Any] = interaction.data or {}
    kind = discord.InteractionType.application_command
    return interaction.type is kind and data.get("type") == ENTRY_POINT_TYPE


async def launch(interaction: discord.Interaction) -> None:
    """Answer an interaction by launching the Activity (LAUNCH_ACTIVITY). The instance
    Discord opened is only logged: the live table asks Discord where each instance runs
    and who is in it (bot.web.places), so nothing is kept here.

    discord.HTTPException if Discord refuses (Activities not enabled, or too late)."""
    response = await interaction.response.launch_activity()
    log.debug(
        "Activity launched for %s in channel %s: instance %s",
        interaction.user.id,
        interaction.channel_id,
        response.activity_id,
    )


async def answer_entry_point(interaction: discord.Interaction) -> None:
    """The Entry Point (Launch, in the App Launcher) launches the Activity, in Discord's 3 s,
    wherever it is used; any other interaction is left alone."""
    if not is_entry_point(interaction):
        return
    try:
        await launch(interaction)
    except discord.HTTPException as exc:  # nothing else can answer it
        log.warning("the Entry Point's launch was refused (%s %s)", exc.status, exc.code)
    finally:
        release(interaction)
