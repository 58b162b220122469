"""The crew's public notices: why the pad cannot fly, a risky launch's odds, a scrap in words."""

from __future__ import annotations

from typing import Any

from engine.cards import (
    Rules,
    fuel_needed,
)
from engine.crew.decisions import percent
from engine.crew.plans import available_sizes
from engine.odds import (
    YELLOW,
    odds,
    points_of,
)
from engine.views import PlayerView

#: Every public notice a decision may carry (see the module's docstring for their params).
NOTICES = (
    "scrap_no_fuel",
    "scrap_no_warhead",
    "scrap_sequence_dead",
    "scrap_too_late",
    "scrap_restart",
    "launch_risky",
)


#: A launch that damages Apophis or adds a counter less often than this is announced.
RISKY = 0.25


def why_dead(view: PlayerView) -> tuple[str, dict[str, Any]]:
    """Why the pad cannot fly (no plan on it scores): the notice and its params."""
    table = view.table
    points = points_of(table.rocket)
    total = sum(points)
    if table.sequence:
        fuelled = points[YELLOW] >= fuel_needed(total)
        return "scrap_sequence_dead", {
            "cause": "warhead" if fuelled else "fuel",
            "fuel": points[YELLOW],
            "needed": fuel_needed(total),
        }
    yellow_left = sum(available_sizes(view)[YELLOW])  # all the yellow that fits: the most fuel
    fuel, total = points[YELLOW] + yellow_left, total + yellow_left
    if fuel < fuel_needed(total):
        return "scrap_no_fuel", {"fuel": fuel, "points": total, "needed": fuel_needed(total)}
    warheads = ["red"] if table.rules is Rules.ADVANCED else ["red", "green"]
    return "scrap_no_warhead", {"warheads": warheads}


def _launch_risk(view: PlayerView) -> dict[str, Any]:
    """The pad's launch chances: of success (damage or a counter), and of each step."""
    table = view.table
    green, red, blue, yellow = points_of(table.rocket)
    total = green + red + blue + yellow
    damage, deflect = odds(table.rules, table.apophis_value, (green, red, blue, yellow))
    hit = min(max(table.apophis_value + blue, 0), 6) / 6 if 4 * yellow >= total else 0.0
    advanced = table.rules is Rules.ADVANCED
    success = damage if advanced or not hit else damage + deflect - damage * deflect / hit
    return {
        "success": round(success, 3),
        "damage": round(damage, 3),
        "deflect": round(deflect, 3),
        "hit": round(hit, 3),
        "explode": round(min(max(yellow - 1, 0), 6) / 6, 3) if advanced else 0.0,
        "rerolls": green // 2 if advanced else 0,
    }


def launch_notice(view: PlayerView) -> tuple[str, dict[str, Any], str] | None:
    """The public notice for a launch whose odds are poor (None: they are not)."""
    risk = _launch_risk(view)
    if risk["success"] >= RISKY:
        return None
    parts = [f"{percent(risk['success'])} to damage Apophis or deflect it"]
    if risk["explode"]:
        parts.append(f"{percent(risk['explode'])} that it explodes")
    return (
        "launch_risky",
        risk,
        f"Launching a risky rocket: {', '.join(parts)}.",
    )


def scrap_notice_text(notice: str, params: dict[str, Any], plan: str) -> str:
    """A scrap notice in one English line."""
    if notice == "scrap_no_fuel":
        return (
            f"Scrapping the rocket: even with all the yellow left it would have {params['fuel']} "
            f"booster fuel for {params['points']} points, and the fuel check needs "
            f"{params['needed']}."
        )
    if notice == "scrap_no_warhead":
        return "Scrapping the rocket: no warhead can go on it and still pass the fuel check."
    if notice == "scrap_sequence_dead":
        if params["cause"] == "fuel":
            return (
                "Scrapping the rocket: its launch sequence is under way, but it has "
                f"{params['fuel']} booster fuel and the fuel check needs {params['needed']}."
            )
        return "Scrapping the rocket: its launch sequence is under way, but it has no warhead."
    if notice == "scrap_too_late":
        return (
            f"Scrapping the rocket: it needs about {params['turns_needed']} more turns and "
            f"only about {params['turns_left']} are left; {plan} is quicker."
        )
    return f"Scrapping my own rocket: {plan} is {params['gain']:g} times quicker."
