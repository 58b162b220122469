"""Slash command names, descriptions and choices in each catalog language, for discord.py.

Each string's catalog key is where discord.py says it is used; the words come from the
catalogs (bot.i18n.catalogs).
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n.catalogs import DEFAULT_LANGUAGE, has, language_of, languages, t


class CommandTranslator(app_commands.Translator):
    """Slash command names, descriptions and choices in each catalog language.

    The key of a string is where it is used: ``command.<qualified name>.name`` and
    ``.description``, ``command.<qualified name>.<parameter>.name`` and ``.description``,
    ``choice.<value>``, unless the string names its own (``locale_str(..., key=...)``, for a
    value two parameters share: a medium size is not a medium difficulty). A string without
    a message in that language stays as written.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        language = language_of(locale)
        if language == DEFAULT_LANGUAGE:
            return None
        if context.location is app_commands.TranslationContextLocation.choice_name and (
            context.data.value in languages()
        ):
            return t(context.data.value, "language.name")  # a language by its own name
        key = string.extras.get("key") or command_key(context)
        if key is None or not has(key):
            return None
        return t(language, key)


def command_key(context: app_commands.TranslationContext) -> str | None:
    """The catalog key of a command string, from where discord.py says it is used."""
    where, data = context.location, context.data
    kinds = app_commands.TranslationContextLocation
    if where in (kinds.command_name, kinds.group_name):
        return f"command.{_dotted(data.qualified_name)}.name"
    if where in (kinds.command_description, kinds.group_description):
        return f"command.{_dotted(data.qualified_name)}.description"
    if where is kinds.parameter_name:
        return f"command.{_dotted(data.command.qualified_name)}.{data.name}.name"
    if where is kinds.parameter_description:
        return f"command.{_dotted(data.command.qualified_name)}.{data.name}.description"
    if where is kinds.choice_name:
        return f"choice.{data.value}"
    return None


def _dotted(qualified_name: str) -> str:
    return qualified_name.replace(" ", ".")
