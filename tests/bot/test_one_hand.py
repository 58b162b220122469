"""One hand, one place: a move pressed on the board shows the presser their hand privately,
where they clicked; typed commands answer with the panel and leave no older one behind; an
idle panel names whose turn it is now; a discard is chosen with a button a card. Played
through the fake Discord."""

from __future__ import annotations

import itertools

import pytest

from engine import card_label
from tests.bot.helpers import answer_text, button_id, enabled, note_of, text_of

pytestmark = pytest.mark.e2e

YOUR_TURN = "🔔 **It is your turn.**"
#: What an older panel used to become: no message says it any more.
MOVED = ("This panel moved", "Ce panneau a été remplacé")


def panels_of(scene, name: str) -> list:
    """`name`'s panels in the channel that still show (none removed), oldest first."""
    return [m for m in scene.private_to(name) if ":h:" in str(m.components)]


def labels(message, action: str) -> dict[str, dict]:
    """The buttons for `action` on `message`, by label."""
    return {
        c["label"]: c
        for c in message.iter_components()
        if f":{action}" in c.get("custom_id", "") and c.get("type") == 2
    }


def every_card(game) -> list[str]:
    """Every card of the game, wherever it is (hands, deck, discard pile, sequence)."""
    return sorted(
        [*(c for h in game.hands for c in h), *game.deck, *game.discard_pile, *game.sequence]
    )


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_draw_on_the_board_shows_the_presser_their_new_hand_privately(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C"], ["5D"]], deck=["6H", "7H", "8C", "9C", "10C", "JC"])
    await bot.outbox.drain()
    (started,) = panels_of(scene, "ann")  # the start's answer: her panel

    drew = await scene.click(scene.board(), "draw", "ann")  # on the public board
    assert drew.response_type == 7 and drew.message.id == scene.board().id  # the board, redrawn
    await fake_discord.wait_for(lambda: started.deleted)  # her older panel goes
    await bot.outbox.drain()
    (shown,) = panels_of(scene, "ann")
    assert shown.ephemeral and shown.visible_to == scene.id("ann")
    assert "You drew 6♥ and 7♥." in note_of(shown)
    assert "Your hand (4 cards)" in text_of(shown) and "6♥ 7♥" in text_of(shown)
    assert "It is <@" in text_of(shown) and not enabled(shown, "draw")  # bob's turn now
    assert scene.hand_seen("ann", table.game.hands[0]) == "panel"  # the DM points there
    assert not panels_of(scene, "bob")  # nothing for anyone else

    # That panel is her live one: bob's move redraws it through its own token (the board,
    # answered by the same click, stays the board).
    bobs = await scene.panel("bob")
    await scene.press(bobs, "draw", "bob")
    await fake_discord.wait_for(lambda: text_of(shown).startswith(YOUR_TURN))
    assert (
        enabled(shown, "draw")
        and scene.board().embeds
        and "Your hand" not in text_of(scene.board())
    )
    pressed = await scene.press(shown, "draw", "ann")  # and it plays, updated in place
    assert pressed.response_type == 7 and "You drew 10♣ and J♣." in answer_text(pressed)
    assert panels_of(scene, "ann") == [shown]
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_typed_commands_answer_with_the_panel_and_leave_no_pointer(fake_discord, scene):
    table = await scene.new_game("ann", "bob")
    hands = [["2C", "3C", "4C", "5H"], ["5D", "6D"]]
    scene.arrange(hands=hands, deck=["7S", "8S", "9S", "10S", "JS", "QS"])
    replies = []
    for name, command, options in [
        ("ann", "build", {"colour": "green", "size": "large"}),
        ("bob", "draw", {}),
        ("ann", "hand", {}),
        ("ann", "draw", {}),
        ("bob", "scrap", {}),
    ]:
        reply = await scene.cmd(command, name, **options)
        assert reply.ephemeral and button_id(reply.message, "hint"), (
            command,
            reply.response_data,
        )
        await scene.panel_noted(reply, name)
        replies.append(reply)
    assert table.game.rocket == [] and table.version == 4  # built, drew, drew, scrapped
    # Each person has one panel: the answer to their latest command; the older are gone.
    assert panels_of(scene, "ann") == [replies[3].message]
    assert panels_of(scene, "bob") == [replies[4].message]
    assert all(reply.message.deleted for reply in (replies[0], replies[1], replies[2]))
    every = fake_discord.messages(scene.channel, include_deleted=True)
    assert not [m for m in every for words in MOVED if words in text_of(m)]


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_an_idle_panel_names_whose_turn_it_is_now(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", "cid")
    scene["cid"].user.locale = "fr"  # she reads her panel in French
    scene.arrange(hands=[["2C"], ["3C"], ["4C"]])
    panels = {name: await scene.panel(name) for name in ("ann", "bob", "cid")}
    order = ["ann", "bob", "cid"] * 2
    for mover, after in itertools.pairwise(order):
        assert table.game.active_player == scene.id(mover)
        await scene.press(panels[mover], "draw", mover)
        await bot.outbox.drain()
        now = f"<@{scene.id(after)}>"
        for name, shown in panels.items():
            if name == after:
                assert text_of(shown).startswith(YOUR_TURN if name != "cid" else "🔔"), name
            elif name == "cid":
                assert f"C’est au tour de {now}." in text_of(shown), (mover, name)
            else:
                assert f"It is {now}'s turn." in text_of(shown), (mover, name)
                others = [f"<@{scene.id(n)}>" for n in ("ann", "bob", "cid") if n != after]
                assert not [o for o in others if f"It is {o}'s turn" in text_of(shown)]


@pytest.mark.scene(names=("ann", "bob"))
@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_discard_is_chosen_with_a_button_a_card(fake_discord, scene, language):
    refusal = {"en": "Discard exactly 2", "fr": "Défaussez exactement 2"}[language]
    table = await scene.new_game("ann", "bob")
    scene["ann"].user.locale = "en-US" if language == "en" else "fr"
    scene.arrange(hands=[["2C", "3C", "4C", "5H", "9D"], ["5D"]], deck=["6H", "7H", "8C"])
    cards = every_card(table.game)
    panel = await scene.panel("ann")
    await scene.press(panel, "draw", "ann")
    assert table.game.phase.value == "discard" and len(table.game.hands[0]) == 7
    # One button a card of her hand, and no Discard button: the second card discards both.
    assert set(labels(panel, "pick")) == {card_label(c) for c in table.game.hands[0]}
    selects = [c["custom_id"] for c in panel.iter_components() if c["type"] == 3]
    assert all(s.endswith(":say") for s in selects)  # no select of cards (table talk's only)
    await scene.choose(panel, ["9D"], "ann")
    assert set(labels(panel, "discard")) == {card_label(c) for c in table.game.hands[0]} - {"9♦"}
    await scene.choose(panel, ["9D"], "ann")  # chosen, then not: a toggle
    assert "9♦" in labels(panel, "pick") and not labels(panel, "discard")
    version = table.version

    # A wrong count (a click of an older or tampered panel) is refused politely: nothing
    # changes, and the panel says why.
    custom_id = f"apo:h:{table.id}:{version}:discard:5H"
    refused = await fake_discord.click(panel, custom_id, user=scene["ann"].user, forged=True)
    await refused.wait_response()
    assert refused.response_type == 7 and "⚠️" in note_of(panel) and refusal in note_of(panel)
    assert table.version == version and len(table.game.hands[0]) == 7
    # A card she does not hold is no button of hers.
    custom_id = f"apo:h:{table.id}:{version}:pick:KS"
    forged = await fake_discord.click(panel, custom_id, user=scene["ann"].user, forged=True)
    await forged.wait_response()
    assert forged.ephemeral and forged.message.id != panel.id and table.version == version

    # The two chosen cards, and only they, go to the discard pile; every card is still there.
    await scene.choose(panel, ["9D"], "ann")  # (the refusal redrew the panel: none chosen)
    gone = await scene.choose(panel, ["5H"], "ann")  # the second card: both go
    assert gone.response_type == 7 and table.version == version + 1
    assert sorted(table.game.hands[0]) == sorted(["2C", "3C", "4C", "6H", "7H"])
    assert sorted(table.game.discard_pile[-2:]) == ["5H", "9D"] and every_card(table.game) == cards
    assert panels_of(scene, "ann") == [panel]  # all on the one panel
    scene.assert_no_cards_in_public()
