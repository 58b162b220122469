"""/hint and the panel's Hint button: what the crew policy would do, told privately to the
player whose turn it is, and out of turn what it would do when their turn comes."""

from __future__ import annotations

import pytest

from bot.views.hints import decision_text
from engine import Colour, Size, legal_moves, when_my_turn
from engine.crew import decide
from engine.views import PastRocket
from tests.bot.helpers import builds_offered, enabled, note_of, text_of

pytestmark = pytest.mark.e2e


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_hint_is_private_changes_nothing_and_can_be_followed(scene):
    table = await scene.new_game("ann", "bob", difficulty="medium", rules="basic")
    scene.arrange(hands=[["3H", "4H", "5H", "KS", "QS"], ["9D"]])
    public_before, version = len(scene.public()), table.version

    reply = await scene.cmd("hint", "ann")
    assert reply.ephemeral
    text = text_of(reply.message)
    decision = decide(table.game.view_for(scene["ann"].user.id), 600)
    assert text == f"💡 {decision_text(decision, 'en', 'suits')}"
    assert text.startswith("💡 Build the large red section") and decision.reason == "build"
    assert table.version == version and len(scene.public()) == public_before

    reply = await scene.cmd("hint", "bob")  # out of turn: for when it comes
    assert reply.ephemeral and text_of(reply.message).startswith("⏳ When your turn comes: ")
    assert table.version == version

    await scene.cmd("build", "ann", colour="red", size="large")  # as hinted
    assert [s.value for s, _ in table.game.rocket] == ["red"]
    reply = await scene.cmd("hint", "bob")
    assert reply.ephemeral and text_of(reply.message).startswith("💡 ")
    scene.assert_no_cards_in_public()


RED_L, YELLOW_M = (Colour.RED, Size.LARGE), (Colour.YELLOW, Size.MEDIUM)

#: Ann's hint on Bob's large red, then Bob's once she built the medium blue.
PLAN_HINTS = {
    "en": (
        "💡 Build the medium yellow section toward red L + blue M + yellow M + red S (the team "
        "has red L; damage 56% a launch).",
        "💡 Build the medium red section toward red L + blue M + red M + yellow M + red S + blue "
        "S + yellow S (the team has red L + blue M; damage 100% a launch).",
    ),
    "fr": (
        "💡 Construisez la section moyenne jaune du missile rouge G + bleu M + jaune M + rouge P "
        "(l’équipe a déjà rouge G\u202f; dégâts 56\u202f% par lancement).",
        "💡 Construisez la section moyenne rouge du missile rouge G + bleu M + rouge M + jaune M "
        "+ rouge P + bleu P + jaune P (l’équipe a déjà rouge G + bleu M\u202f; dégâts "
        "100\u202f% par lancement).",
    ),
}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.scene(names=("ann", "bob"))
async def test_a_hint_names_the_plan_what_the_team_has_and_what_the_move_adds(scene, language):
    table = await scene.new_game("ann", "bob", difficulty="medium", rules="basic")
    for name in ("ann", "bob"):
        scene[name].user.locale = language
    bob = scene.id("bob")
    scene.arrange(
        rocket=[("red", 3)],
        builders=[bob],
        hands=[["3S", "4S", "9D", "10D"], ["6H", "7H", "8H"]],
    )
    # Bob built a medium on a large before: the team does not wait for large sections
    table.game.past_rockets = [PastRocket((RED_L, YELLOW_M), (bob, bob), (), scrapped_by=bob)]
    table.stored = table.game.save()
    reply = await scene.cmd("hint", "ann")
    assert text_of(reply.message) == PLAN_HINTS[language][0]
    await scene.cmd("build", "ann", colour="blue", size="medium")  # as hinted
    assert table.game.builders == [bob, scene.id("ann")]
    reply = await scene.cmd("hint", "bob")
    assert text_of(reply.message) == PLAN_HINTS[language][1]


#: How a hint out of turn begins, in each language.
WHEN_YOUR_TURN = {"en": "⏳ When your turn comes: ", "fr": "⏳ Quand votre tour viendra\u202f: "}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.scene(names=("ann", "bob"))
async def test_a_hint_out_of_turn_names_a_move_legal_when_the_turn_comes(scene, language):
    table = await scene.new_game("ann", "bob", difficulty="medium", rules="basic")
    scene["bob"].user.locale = language
    scene.arrange(hands=[["3S", "4S", "9D", "10D"], ["6H", "7H", "8H", "2C"]])
    bob = scene.id("bob")
    version, public = table.version, len(scene.public())
    reply = await scene.cmd("hint", "bob")  # ann's turn: bob plans ahead
    assert reply.ephemeral and table.version == version and len(scene.public()) == public
    # the crew's move from bob's own view (his hand, the table), as if his turn came now
    decision = decide(when_my_turn(table.game.view_for(bob)), 600)
    hint = decision_text(decision, language, "suits")
    assert text_of(reply.message) == WHEN_YOUR_TURN[language] + hint
    await scene.cmd("draw", "ann")  # a draw: the table bob planned on is unchanged
    while table.game.phase.value == "discard":
        await scene.cmd("discard", "ann", cards=table.game.hands[0][-1])
    assert table.game.active_player == bob
    assert legal_moves(table.game.view_for(bob)).allows({**decision.action, "player": bob})
    reply = await scene.cmd("hint", "bob")  # his turn now: the same advice, for now
    assert text_of(reply.message) == f"💡 {hint}"
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_hint_outside_a_game_is_refused_politely(scene):
    reply = await scene.cmd("hint", "ann")
    assert reply.ephemeral and "no apophis game" in text_of(reply.message).lower()
    await scene.new_game("ann", difficulty="medium")
    reply = await scene.cmd("hint", "bob")
    assert reply.ephemeral and "not playing" in text_of(reply.message)


# ------------------------------------------------------------ the panel's Hint button


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_panels_hint_button_shows_the_hint_on_the_panel_itself(scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", difficulty="medium", rules="basic")
    scene.arrange(hands=[["3H", "4H", "5H", "KS", "QS"], ["9D"]])
    ann, bob = await scene.panel("ann"), await scene.panel("bob")
    assert enabled(ann, "hint") and enabled(bob, "hint")  # bob's plans for his turn
    private = len(scene.private_to("ann")), len(scene.private_to("bob"))
    public, version = len(scene.public()), table.version

    hinted = await scene.press(ann, "hint", "ann")
    assert hinted.response_type == 7 and hinted.message.id == ann.id  # the panel, updated
    decision = decide(table.game.view_for(scene.id("ann")), 600)
    assert note_of(ann) == f"💡 {decision_text(decision, 'en', 'suits')}"
    assert note_of(ann).startswith("💡 Build the large red section") and "\n" not in note_of(ann)
    assert "**Your turn** 🟥 3♥" in text_of(ann) and "red.3" in builds_offered(ann)
    assert table.version == version and len(scene.public()) == public
    assert (len(scene.private_to("ann")), len(scene.private_to("bob"))) == private

    await scene.press(ann, "build", "ann", arg="red.3")  # as hinted: the hint gives way
    assert "💡" not in note_of(ann) and table.game.active_player == scene.id("bob")
    await bot.outbox.drain()
    assert enabled(bob, "hint")  # his panel, refreshed when his turn came
    await scene.press(bob, "hint", "bob")
    assert note_of(bob).startswith("💡 ")
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_hint_button_advises_a_discard_in_french(scene):
    table = await scene.new_game("ann", "bob", difficulty="medium", rules="advanced")
    scene["ann"].user.locale = "fr"  # her Discord speaks French from now on
    scene.arrange(hands=[["2C", "3C", "4C", "5H", "6H"], ["2D"]], deck=["7S", "8S", "9S", "10S"])
    ann = await scene.panel("ann")
    await scene.press(ann, "draw", "ann")  # 7 cards: a discard is due
    assert table.game.phase.value == "discard" and enabled(ann, "hint")
    await scene.press(ann, "hint", "ann")
    decision = decide(table.game.view_for(scene.id("ann")), 600)
    assert decision.reason == "discard"
    assert note_of(ann) == f"💡 {decision_text(decision, 'fr', 'suits')}"
    assert note_of(ann).startswith("💡 Défaussez ") and ":hint" in str(ann.components)
    assert table.game.phase.value == "discard"  # a hint changes nothing


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_stale_and_forged_hint_clicks_are_answered_politely(fake_discord, scene):
    """Forged ids (an argument, another channel's game) are refused with the others in
    test_stale_and_forged_clicks; here, what is not forged in its form but still wrong."""
    table = await scene.new_game("ann", "bob")
    await scene.cmd("draw", "ann")  # the game moves on
    while table.game.phase.value == "discard":
        await scene.cmd("discard", "ann", cards=table.game.hands[0][-1])
    ann = await scene.panel("ann")  # (her panel: a click naming move 0 is a stale one)

    async def forge(message, user, custom_id):
        sent = await fake_discord.click(message, custom_id, user=scene[user], forged=True)
        return await sent.wait_response()

    stale = await forge(ann, "ann", f"apo:h:{table.id}:0:hint")
    assert stale.response_type == 7 and stale.message.id == ann.id
    assert note_of(ann) == "The game moved on since: here is your hand now."
    now = table.version
    reply = await forge(scene.board(), "cid", f"apo:h:{table.id}:{now}:hint")
    assert reply.ephemeral and "does not belong" in text_of(reply.message)  # not a panel
    told = (await scene.cmd("hand", "cid")).message  # his own private answer
    reply = await forge(told, "cid", f"apo:h:{table.id}:{now}:hint")
    assert reply.ephemeral and "not playing" in text_of(reply.message)
    # Out of turn, the button plans for her next turn: the panel says it, nothing more.
    assert table.game.active_player == scene.id("bob")
    reply = await forge(ann, "ann", f"apo:h:{table.id}:{now}:hint")
    assert reply.response_type == 7
    assert note_of(ann).startswith("⏳ When your turn comes: ")
    assert table.version == now
