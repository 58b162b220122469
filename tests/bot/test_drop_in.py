"""Seats changing hands mid-game: a late friend drops in with the board's Join, a leaver's
seat goes to a crewmate with its hand, and what is refused, before and after a restart."""

from __future__ import annotations

import asyncio
from collections import Counter

import discord
import pytest

from bot.i18n.catalogs import t
from bot.views.render import cards_text
from engine import Game, Phase
from tests.bot.helpers import Scene, answer_text, button_id, content, text_of, time_passes

pytestmark = pytest.mark.e2e


def cards(game: Game) -> Counter[str]:
    """Every card of the game wherever it is: deck, discard pile, hands, launch sequence."""
    return Counter(
        game.deck + game.discard_pile + [c for h in game.hands for c in h] + game.sequence
    )


async def crew_game(scene: Scene, crewmates: int = 1):
    """Ann's game with `crewmates` AI crewmates, started with her turn first; the table."""
    lobby = (await scene.cmd("apophis new", "ann")).message
    for _ in range(crewmates):
        assert (await scene.click(lobby, "crewadd", "ann")).response_type == 7
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    await scene.bot.outbox.drain()
    return scene.live()


def button_ids(message) -> list[str]:
    return [c["custom_id"] for c in message.iter_components() if "custom_id" in c]


def join_shown(scene: Scene) -> bool:
    """Whether the live board offers Join."""
    try:
        button_id(scene.board(), "join")
    except LookupError:
        return False
    return True


@pytest.mark.parametrize(
    ("language", "took", "note"),
    [
        ("en", "took 🤖 Robot 1's seat, with its hand of 4 cards.", "You took a crewmate's seat"),
        ("fr", "prend la place de 🤖 Robot 1, et sa main de 4 cartes.", "Vous avez pris la place"),
    ],
)
async def test_a_late_friend_takes_a_crewmates_seat_with_its_hand_privately(
    fake_discord, make_bot, timer, language, took, note
):
    bot = make_bot(timer=timer)  # time stands still: the crewmate does not move meanwhile
    scene = Scene(fake_discord, bot, names=("ann", "cid"))
    scene.guild.preferred_locale = language
    scene["cid"].user.locale = language
    async with fake_discord.connected(bot):
        table = await crew_game(scene)
        assert join_shown(scene)
        before, hand, version = cards(table.game), list(table.game.hands[1]), table.version
        joined = await scene.click(scene.board(), "join", "cid")
        cid = scene.id("cid")
        # the seat, its hand and its place are cid's: no card dealt, none lost
        assert table.game.players == [scene.id("ann"), cid] and table.game.hands[1] == hand
        assert cards(table.game) == before and table.version == version + 1
        # privately, cid's own panel with that hand, in cid's language
        assert joined.ephemeral and joined.message.visible_to == cid
        shown = answer_text(joined)
        assert note in shown and all(cards_text((c,), language, "suits") in shown for c in hand)
        await bot.outbox.drain()
        board = text_of(scene.board())
        assert f"<@{cid}> {took}" in board  # one public line, and no card in public
        scene.assert_no_cards_in_public()
        assert not join_shown(scene)  # no seat left to take
        await scene.cmd("draw", "ann")  # and the seat's next turn is cid's
        if table.game.phase is Phase.DISCARD:
            await scene.cmd("discard", "ann", cards=table.game.hands[0][-1])
        assert table.game.active_player == cid and -1 not in table.game.players


async def test_two_late_friends_pressing_join_at_once_take_one_seat(fake_discord, make_bot, timer):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "cid", "dee"))
    async with fake_discord.connected(bot):
        table = await crew_game(scene)
        board, version = scene.board(), table.version
        answers = await asyncio.gather(*(scene.click(board, "join", n) for n in ("cid", "dee")))
        seated = [n for n in ("cid", "dee") if scene.id(n) in table.game.players]
        assert len(seated) == 1 and table.version == version + 1
        refused = next(a for a, n in zip(answers, ("cid", "dee"), strict=True) if n not in seated)
        assert refused.ephemeral and t("en", "seat.none") in answer_text(refused)


async def test_a_seat_someone_left_is_taken_with_no_cards_before_the_turn(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid", "dee"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", "cid")
        await bot.outbox.drain()
        assert not join_shown(scene)  # every seat is a person's
        await scene.leave_game("bob")
        await bot.outbox.drain()
        assert join_shown(scene)  # Bob's seat is free now
        before = cards(table.game)
        joined = await scene.cmd("apophis join", "dee")  # typed: the same as the board's Join
        ann, cid, dee = (scene.id(n) for n in ("ann", "cid", "dee"))
        assert table.game.players == [dee, ann, cid] and table.game.hands[0] == []
        assert table.game.active_player == ann and cards(table.game) == before
        assert joined.ephemeral and "You took a free seat" in answer_text(joined)
        await bot.outbox.drain()
        assert f"👋 <@{dee}> took a free seat, with no cards yet." in text_of(scene.board())
        assert not join_shown(scene)


async def test_no_seat_a_removed_player_and_a_member_who_may_not_play_are_refused(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid", "dee", "eve"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        version = table.version
        refused = await scene.cmd("apophis join", "cid")
        assert content(refused) == t("en", "seat.none") and table.version == version
        await scene.cmd("apophis kick", "ann", player=scene["bob"])
        again = await scene.cmd("apophis join", "bob")  # removed by the host: not back
        assert "You were removed from this game" in content(again)
        send = discord.Permissions(send_messages=True).value
        await fake_discord.set_permissions(scene.channel, scene["dee"], deny=send)
        muted = await scene.cmd("apophis join", "dee")  # may not write here: may not play
        assert content(muted) == t("en", "seat.cannot_send")
        assert scene.id("dee") not in table.game.players
        assert table.game.players == [scene.id("ann")]
        await scene.cmd("apophis end", "ann")
        over = await scene.cmd("apophis join", "eve")  # the game is over: nothing to join
        assert content(over) == t("en", "error.no_game")
        assert scene.id("eve") not in table.game.players


@pytest.mark.parametrize(
    ("language", "label", "said"),
    [
        ("en", "A crewmate takes my seat", "You left the game; 🤖 Robot 1 plays your seat on"),
        ("fr", "Un coéquipier IA prend ma place", "Vous avez quitté la partie ; 🤖 Robot 1"),
    ],
)
async def test_a_leaver_hands_the_seat_to_a_crewmate_who_plays_it_after_a_restart(
    fake_discord, make_bot, timer, language, label, said
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    first = make_bot(timer=timer)
    scene = Scene(fake_discord, first, names=("ann", "bob"))
    async with fake_discord.connected(first):
        table = await scene.new_game("ann", "bob")
        scene["bob"].user.locale = language
        bob = scene.id("bob")
        hand, before = list(table.game.hands[1]), cards(table.game)
        panel = await scene.panel("bob")
        asked = await scene.cmd("apophis leave", "bob")
        labels = [c["label"] for c in asked.message.iter_components() if c["type"] == 2]
        assert label in labels and len(labels) == 3
        gone = await scene.press(asked.message, "crew", "bob")
        said = said.replace(" ; ", "\u202f; ") if language == "fr" else said
        assert said in content(gone)
        assert table.game.players == [scene.id("ann"), -1] and table.game.hands[1] == hand
        assert cards(table.game) == before and bob not in table.game.players
        await first.outbox.drain()
        closed = t(language, "panel.left")
        assert text_of(panel) == closed and not button_ids(panel)  # his panel is closed
        assert "🤖 <@-1>" not in text_of(scene.board())
        assert "left the game; 🤖 Robot 1 plays their seat on" in text_of(scene.board())
        scene.assert_no_cards_in_public()
        version = table.version
    second = make_bot(timer=timer)
    scene.bot = second
    async with fake_discord.connected(second):
        resumed = scene.live()
        assert resumed.game.players == [scene.id("ann"), -1] and resumed.game.hands[1] == hand
        record = await second.store.get_game(resumed.id)
        assert record.players == (scene.id("ann"), -1)  # stored with the game's version
        assert record.starting_players == (scene.id("ann"), bob)  # a replay deals to them
        await scene.cmd("draw", "ann")
        if resumed.game.phase is Phase.DISCARD:
            await scene.cmd("discard", "ann", cards=resumed.game.hands[0][-1])
        assert resumed.game.active_player == -1
        await time_passes(
            timer, lambda: resumed.version >= version + 2 and resumed.game.active_player != -1
        )
        log = await second.store.game_log(resumed.id)
        assert [e.action["type"] for e in log if e.actor == bob][-1] == "take_seat"
        assert any(e.actor == -1 for e in log)  # the crewmate played the seat's next turn


async def test_the_last_person_is_not_offered_a_crewmate(fake_discord, make_bot, timer):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        table = await crew_game(scene)
        asked = await scene.cmd("apophis leave", "ann")
        labels = [c["label"] for c in asked.message.iter_components() if c["type"] == 2]
        assert labels == ["Leave, discard my hand", "Stay"]
        assert table.game.players == [scene.id("ann"), -1]


@pytest.mark.parametrize(
    ("language", "taken", "crewed"),
    [
        ("en", "its hand of {} card{}.", "their {} card{}."),
        ("fr", "sa main de {} carte{}.", "sa main de {} carte{}."),
    ],
)
def test_the_seat_lines_count_the_hand(language, taken, crewed):
    """Every plural checked at 0, 1, 2 and 5 (French says "0 carte", English "0 cards")."""
    for count in (0, 1, 2, 5):
        plural = "s" if count > 1 or (count == 0 and language == "en") else ""
        line = t(language, "event.seat_taken", player="A", seat="B", count=count)
        assert line.endswith(taken.format(count, plural)), line
        line = t(language, "event.seat_crewed", player="A", left="B", count=count)
        assert line.endswith(crewed.format(count, plural)), line


async def test_a_host_who_hands_the_seat_to_a_crewmate_passes_hosting_on(
    fake_discord, make_bot, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        asked = await scene.cmd("apophis leave", "ann")
        gone = await scene.press(asked.message, "crew", "ann")
        bob = scene.id("bob")
        assert table.host_id == bob and table.game.players == [-1, bob]
        assert t("en", "notice.new_host", player=f"<@{bob}>") in content(gone)
        record = await bot.store.get_game(table.id)
        assert record.host_id == bob
