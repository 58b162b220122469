"""What drawing the hand panels costs the bot: the Say menu worded once for what it offers
(every panel has it, mostly the same from one version to the next); through the fake Discord,
one redraw of each live panel a turn pass, and none for a click that passes no turn."""

from __future__ import annotations

from typing import Any

import pytest

from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import panel, say_menu
from tests.bot.helpers import Scene, text_of
from tests.engine.helpers import table as position


def table_with(**arranged: Any) -> Table:
    game = position(players=(1, 2), **arranged)
    settings = LobbySettings("basic", "easy", 10)
    return Table(1, 10, 100, 1, settings, "active", [1, 2], game=game, deadline=None)


def test_the_say_menu_is_worded_once_for_what_it_offers(monkeypatch):
    worded: list[str] = []

    def counted(signal, language, style):
        worded.append(signal.code)
        return signal.code

    monkeypatch.setattr(say_menu, "signal_text", counted)
    cached = getattr(say_menu, "menu_options", None)  # (what other tests worded: not here)
    if cached is not None:
        cached.cache_clear()
    table = table_with(hands=[["2C", "3C", "7H"], ["5D"]])
    first = panel.panel_message(table, 2, "en").json()
    assert worded and "hold.green.2" not in worded and "hold.blue.1" in worded  # bob's
    count = len(worded)
    table.version += 1  # the turn passes on, bob's hand unchanged: his menu as it was
    again = panel.panel_message(table, 2, "en").json()
    assert len(worded) == count
    assert say_picker(again) == {**say_picker(first), "custom_id": say_picker(again)["custom_id"]}
    panel.panel_message(table, 2, "fr").json()  # another language: worded for it
    assert len(worded) == 2 * count


def say_picker(message: dict) -> dict:
    rows = [c for c in message["components"] if c.get("type") == 1]
    return next(c for row in rows for c in row["components"] if c["custom_id"].endswith(":say"))


@pytest.mark.e2e
@pytest.mark.scene(names=("ann", "bob", "cid", "dee"))
async def test_each_live_panel_is_redrawn_once_a_turn_pass_and_not_for_a_pick(
    fake_discord, scene: Scene
):
    bot = scene.bot
    await scene.new_game("ann", "bob", "cid", "dee")
    hands = [["2C", "3C", "4C", "5C", "6C"], ["3D"], ["4D"], ["5D"]]
    scene.arrange(hands=hands, deck=["7H", "8H", "9H", "10H", "7S", "8S", "9S", "10S"])
    names = ("ann", "bob", "cid", "dee")
    panels = {name: await scene.panel(name) for name in names}
    await bot.outbox.drain()

    seen = {name: 0 for name in names}

    def edits() -> dict[str, int]:
        """How many times each panel changed since the last look (the clicker's by the
        click's answer, the others through their tokens), the unchanged left out."""
        made = {name: len(panels[name].history) - seen[name] for name in names}
        seen.update({name: len(panels[name].history) for name in names})
        return {name: count for name, count in made.items() if count}

    edits()
    await scene.press(panels["ann"], "draw", "ann")  # 7 cards: she discards two first
    await bot.outbox.drain()
    assert edits() == {"ann": 1}  # answered on her panel; nobody else's changed
    await scene.choose(panels["ann"], ["2C"], "ann")  # a card picked: her panel alone
    await bot.outbox.drain()
    assert edits() == {"ann": 1}
    await scene.choose(panels["ann"], ["3C"], "ann")  # the last card: both discarded
    await bot.outbox.drain()
    assert edits() == {name: 1 for name in names}  # the turn passed: each panel once
    for mover, after in (("bob", "cid"), ("cid", "dee"), ("dee", "ann")):
        await scene.press(panels[mover], "draw", mover)
        await bot.outbox.drain()
        assert edits() == {name: 1 for name in names}, mover
        for name in names:  # each names whose turn it is now
            assert f"<@{scene.id(after)}>" in text_of(panels[name]) or name == after
