"""Table talk through the fake Discord: a signal chosen in the hand panel's Say menu, shown on
the board beside its player (no card in public), the player's panel answering in place."""

from __future__ import annotations

import pytest

from tests.bot.helpers import Scene, answer_text, text_of

pytestmark = pytest.mark.e2e


def say_menu(panel) -> dict:
    return next(c for c in panel.iter_components() if c.get("custom_id", "").endswith(":say"))


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_signal_from_the_panel_shows_on_the_board_beside_its_player(fake_discord, scene):
    scene: Scene
    table = await scene.new_game("ann", "bob")
    panel = await scene.panel("bob")  # out of turn: a signal takes no turn
    menu = say_menu(panel)
    assert menu["placeholder"] == "💬 Say to the team…"
    labels = {o["value"]: o["label"] for o in menu["options"]}
    assert labels["build.red"] == "I'll build ♥" and labels["dont_scrap"] == "Don't scrap"
    version = table.version
    chose = await fake_discord.select(panel, menu["custom_id"], ["build.red"], user=scene["bob"])
    await chose.wait_response()
    assert chose.response_type == 7  # the panel, in place, with its note
    assert "💬 You told the team: I'll build ♥" in answer_text(chose)
    assert table.version == version and table.game.active_player == scene.id("ann")
    await scene.bot.outbox.drain()
    board = text_of(scene.board(table))
    # The short board (beside its picture) has a line a signal; its Details, the seat's.
    assert f"💬 <@{scene.id('bob')}>: I'll build ♥" in board.split("\n")
    details = text_of((await scene.click(scene.board(table), "details", "ann")).message)
    bob_line = next(line for line in details.split("\n") if f"<@{scene.id('bob')}>" in line)
    assert bob_line.endswith("· 💬 I'll build ♥")
    scene.assert_no_cards_in_public()
