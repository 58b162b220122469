"""Leaving a game in play from the live table: the state asks a seated player first, as
`/apophis leave` does in Discord (discard the hand, a crewmate takes the seat with it, or
stay), and the answer sent from the web is the same game command; refused politely, with
nothing changed, where it cannot be."""

from __future__ import annotations

import pytest

from bot.i18n.catalogs import t
from tests.bot.helpers import Scene
from tests.bot.test_drop_in import cards
from tests.web.helpers import Socket

pytestmark = pytest.mark.e2e
LOCALES = {"en": "en-US", "fr": "fr"}


def answers(state: dict) -> dict[str, str]:
    """The leave question's answers a state offers its viewer, by action: their custom ids."""
    leave = (state.get("you") or {}).get("leave")
    if leave is None:
        return {}
    return {m["custom_id"].split(":")[4]: m["custom_id"] for m in leave["moves"]}


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_player_leaves_and_a_crewmate_keeps_the_hand(fake_discord, make_web_bot, language):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob")
        hand, before = list(table.game.hands[1]), cards(table.game)
        locale = LOCALES[language]
        async with (
            Socket(bot, scene.channel.id, scene["ann"], locale=locale) as ann,
            Socket(bot, scene.channel.id, scene["bob"], locale=locale) as bob,
            Socket(bot, scene.channel.id) as watcher,
        ):
            state = await bob.wait_state(lambda s: "leave" in (s.get("you") or {}))
            asked = state["you"]["leave"]
            assert asked["question"].split("\n") == [
                t(language, "leave.confirm", count=len(hand)),
                t(language, "leave.confirm.crew_line"),
            ]
            labels = [m["label"] for m in asked["moves"]]
            assert labels == [
                t(language, "leave.confirm.leave"),
                t(language, "leave.confirm.crew"),
                t(language, "leave.confirm.stay"),
            ]
            watching = await watcher.wait_state(lambda s: s["status"] == "active")
            assert watching["you"] is None  # nobody else is asked
            gone = await bob.move(answers(state)["crew"])
            assert gone["ok"], gone
            said = t(language, "reply.left_crewed", player="🤖 Robot 1")
            assert gone["note"] == said, gone
            assert table.game.players == [scene.id("ann"), -1] and table.game.hands[1] == hand
            assert cards(table.game) == before  # no card moved
            after = await bob.wait_state(lambda s: not (s.get("you") or {}).get("seated"))
            assert "leave" not in after["you"] and "hand" not in after["you"]
            told = t(
                language, "event.seat_crewed", left="bob", player="🤖 Robot 1", count=len(hand)
            )
            others = await ann.wait_state(lambda s: told in s["texts"]["recent"])
            assert "leave" in others["you"]  # ann still plays, and may still leave
            held = {card["label"] for card in state["you"]["hand"]}  # as bob saw them
            assert not any(c in line for c in held for line in others["texts"]["recent"])
        scene.assert_no_cards_in_public()


async def test_a_plain_leave_discards_the_hand(fake_discord, make_web_bot):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob", "cid")
        held, discarded = len(table.game.hands[2]), len(table.game.discard_pile)
        async with Socket(bot, scene.channel.id, scene["cid"]) as cid:
            state = await cid.wait_state(lambda s: "leave" in (s.get("you") or {}))
            gone = await cid.move(answers(state)["leave"])
            assert gone["ok"] and gone["note"] == t("en", "reply.left_game"), gone
            assert table.game.players == [scene.id("ann"), scene.id("bob")]
            assert len(table.game.discard_pile) == discarded + held
            await cid.wait_state(lambda s: not s["you"]["seated"] and "leave" not in s["you"])


async def test_stay_changes_nothing_and_the_last_person_is_offered_no_crewmate(
    fake_discord, make_web_bot
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob"))
    async with fake_discord.connected(bot.discord):
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.click(lobby, "crewadd", "ann")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        async with Socket(bot, scene.channel.id, scene["ann"], locale="fr") as ann:
            state = await ann.wait_state(lambda s: "leave" in (s.get("you") or {}))
            offered = answers(state)
            assert list(offered) == ["leave", "stay"]  # no other person plays on
            assert t("fr", "leave.confirm.crew_line") not in state["you"]["leave"]["question"]
            version, players = table.version, list(table.game.players)
            stayed = await ann.move(offered["stay"])
            assert stayed["ok"] and stayed["note"] == t("fr", "leave.stayed"), stayed
            crew = offered["leave"].replace(":leave", ":crew")  # not offered: sent anyway
            refused = await ann.move(crew)
            assert not refused["ok"] and refused["note"].startswith("⚠️ "), refused
            assert table.version == version and table.game.players == players


async def test_a_leave_is_refused_to_whoever_has_no_seat_and_outside_play(
    fake_discord, make_web_bot
):
    bot = make_web_bot()
    scene = Scene(fake_discord, bot.discord, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot.discord):
        table = await scene.new_game("ann", "bob")
        async with (
            Socket(bot, scene.channel.id, scene["bob"]) as bob,
            Socket(bot, scene.channel.id, scene["cid"]) as cid,
        ):
            state = await bob.wait_state(lambda s: "leave" in (s.get("you") or {}))
            leave = answers(state)["leave"]
            await cid.wait_state(lambda s: s["status"] == "active")
            version = table.version
            refused = await cid.move(leave)  # a member not seated
            assert not refused["ok"] and refused["note"] == f"⚠️ {t('en', 'refusal.not_seated')}"
            assert table.version == version and len(table.game.players) == 2
            await scene.cmd("apophis end", "ann")
            over = await bob.move(leave)  # the game is over
            assert not over["ok"] and scene.id("bob") in table.game.players
