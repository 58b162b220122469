"""The rules as a short illustrated how-to, each part of the rules in full a menu choice away.

`/apophis rules` (and the lobby's How to play) answer with `message(language, rules)`: a
picture of a turn (bot.pictures.howto_picture) over four short lines, for the rules of
the table where it is asked (basic where there is none), and a menu of the rules'
parts (`SECTIONS`). Choosing one shows that part in full in the same message, without
the picture (a phone keeps it on one screen); "in short" brings the picture back. The
menu's custom id carries the rules shown ("apo:u:0:0:<rules>"), so any choice reads
them again after a restart.
"""

from __future__ import annotations

from typing import Any

from bot.i18n.catalogs import t
from bot.pictures import howto_picture
from bot.views.attachments import Picture
from bot.views.balance import STEADY_TEAM_WINS
from bot.views.components import SELECT, rows
from bot.views.embeds import EMBED_COLOUR
from bot.views.message import Embed, Message
from bot.views.render import percent
from engine import DIFFICULTY_MINUTES, Colour, Rules

#: The parts of the rules the menu offers, in its order ("short": the how-to itself).
SECTIONS = ("short", "turn", "parts", "launch", "end", "odds")


def message(language: str, rules: Rules | str = Rules.BASIC, section: str = "short") -> Message:
    """The how-to (`section` "short", with its picture) or one part of the rules in full,
    with the menu of the parts; a whole message, so that a part shown takes the picture
    away and the short one brings it back."""
    rules = Rules(rules)
    embed = Embed(title=t(language, "rules.title"), colour=EMBED_COLOUR)
    embed.description = text(language, rules, section)
    picture = None
    if section == "short":
        picture = Picture(
            f"howto-{language}.png", howto_picture.draw(language), howto_picture.describe(language)
        )
        embed.set_image(url=f"attachment://{picture.filename}")
        embed.set_footer(text=t(language, "howto.footer"))
    return Message(
        embed=embed, components=rows(menu(language, rules, section)), picture=picture, whole=True
    )


def menu(language: str, rules: Rules, shown: str) -> dict[str, Any]:
    """The menu of the rules' parts, the one shown marked."""
    return {
        "type": SELECT,
        "custom_id": f"apo:u:0:0:{rules.value}",
        "options": [
            {
                "label": t(language, f"howto.section.{section}"),
                "value": section,
                "default": section == shown,
            }
            for section in SECTIONS
        ],
        "placeholder": t(language, "howto.more"),
        "min_values": 1,
        "max_values": 1,
    }


def text(language: str, rules: Rules, section: str) -> str:
    """One part of the rules, in `language`, for a game of `rules`."""
    name = rules.value
    if section == "short":
        return t(language, f"howto.short.{name}")
    if section == "turn":
        return t(language, "howto.turn")
    if section == "parts":
        symbols = {c.value: c.symbol for c in Colour}
        return t(language, "howto.parts", green_role=t(language, f"role.green.{name}"), **symbols)
    if section == "launch":
        return t(language, f"howto.launch.{name}", steps=t(language, f"rules.steps.{name}"))
    if section == "end":
        other = t(language, f"rules.other.{name}")
        return t(language, "howto.end", win=t(language, f"rules.win.{name}"), other_rules=other)
    return odds(language, rules)


def odds(language: str, rules: Rules) -> str:
    """How often a steady team wins at each difficulty."""
    lines = [t(language, "rules.odds")]
    for difficulty, wins in STEADY_TEAM_WINS[rules.value].items():
        lines.append(
            t(
                language,
                "rules.odds.line",
                difficulty=t(language, f"difficulty.{difficulty}"),
                minutes=DIFFICULTY_MINUTES[difficulty],
                percent=percent(wins / 100, language),
            )
        )
    return "\n".join(lines)
