"""/apophis profile and /apophis leaderboard through the fake Discord, in English and French."""

from __future__ import annotations

from typing import Any

import pytest

from bot.store.records import First, PlayerTally, Profile, Streak
from bot.table import Table
from bot.views.records import profile_embed
from bot.views.render import mention
from tests.bot.helpers import Scene, content, text_of

pytestmark = pytest.mark.e2e

ALL_SUITS = ["2C", "2H", "2D", "2S"]
NARROW = "\u202f"


async def win_a_game(scene: Scene, *players: str, **options: Any) -> Table:
    """The first player's launch destroys Apophis (a medium game, basic rules, unless
    `options` say otherwise), at once."""
    table = await scene.new_game(*players, **{"difficulty": "medium", **options})
    scene.arrange(
        hands=[ALL_SUITS, *(["3C"] for _ in players[1:])],
        rocket=[("red", 3), ("yellow", 1)],
        damage=2,
        dice=[6, 6, 6],  # (the advanced rules' launch roll first)
    )
    await scene.cmd("launch", players[0], cards=" ".join(ALL_SUITS))
    assert not table.open
    return table


async def lose_a_game(scene: Scene, *players: str) -> None:
    """The clock runs out as the first player plays on."""
    table = await scene.new_game(*players, difficulty="medium")
    table.deadline = scene.bot.service.now() - 1
    await scene.cmd("draw", players[0])
    assert table.game.outcome.value == "lost"


async def final_board(scene: Scene, table: Table) -> str:
    """The final board's words with its Details' (each first earned: behind them)."""
    await scene.bot.outbox.drain()
    return await scene.final_story(table)


@pytest.mark.scene(names=("ann", "bob"))
async def test_profiles_and_the_leaderboard_in_english(scene):
    none = await scene.cmd("apophis profile", "ann")
    assert none.ephemeral and "You have not finished a game on this server yet" in content(none)
    board = await scene.cmd("apophis leaderboard", "ann")
    assert board.ephemeral and "No game has been won here yet" in text_of(board.message)

    await win_a_game(scene, "ann", "bob")
    mine = await scene.cmd("apophis profile", "ann")
    text = text_of(mine.message)
    assert mine.ephemeral and f"<@{scene.id('ann')}>'s games on this server" in text
    assert "All-human teams: 1 game — 1 won" in text
    assert "**Basic rules**: Medium 1/1" in text
    assert "1 launch — 1 hit on Apophis, 1 damage dealt" in text
    assert "Fastest win: 0:" in text and "(basic rules, medium, 2 players)" in text
    bobs = text_of((await scene.cmd("apophis profile", "ann", player=scene["bob"])).message)
    assert f"<@{scene.id('bob')}>'s games" in bobs and "no launches — no hits on Apophis" in bobs

    board = text_of((await scene.cmd("apophis leaderboard", "bob")).message)
    assert "Fastest wins: Medium (10 min)" in board
    assert "1. 0:0" in board and f"<@{scene.id('ann')}> and <@{scene.id('bob')}>" in board
    assert "Nobody yet: play 5 games in all-human teams to be ranked." in board
    assert "AI crewmates" not in board  # no game with one yet


@pytest.mark.scene(names=("ann", "cid"))
async def test_a_win_with_a_crewmate_counts_on_the_leaderboard_apart(scene):
    scene["cid"].user.locale = "fr"  # reads, does not play
    lobby = (await scene.cmd("apophis new", "ann", difficulty="medium")).message
    assert (await scene.click(lobby, "crewadd", "ann")).response_type == 7
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    table = scene.live()
    rocket = [("red", 3), ("yellow", 1)]
    scene.arrange(hands=[ALL_SUITS, ["3C"]], rocket=rocket, damage=2, dice=[6, 6])
    await scene.cmd("launch", "ann", cards=" ".join(ALL_SUITS))
    assert not table.open

    board = text_of((await scene.cmd("apophis leaderboard", "ann")).message)
    assert "Fastest wins with AI crewmates: Medium (10 min)" in board
    assert "1. 0:0" in board and f"<@{scene.id('ann')}> and 🤖 Robot 1 (basic rules)" in board
    assert "Nobody yet: play 5 games with AI crewmates to be ranked here." in board
    assert "Nobody yet: play 5 games in all-human teams to be ranked." in board
    assert "Fastest wins: Medium" not in board  # no all-human win
    french = text_of((await scene.cmd("apophis leaderboard", "cid")).message)
    assert f"Victoires les plus rapides avec des IA{NARROW}: Intermédiaire (10 min)" in french
    assert f"<@{scene.id('ann')}> et 🤖 Robot 1 (règles de base)" in french
    assert "jouez 5 parties avec des IA pour être classé ici" in french


async def test_another_servers_games_never_count(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    elsewhere = fake_discord.add_guild("Elsewhere")
    channel = fake_discord.add_text_channel(elsewhere, "apophis")
    fake_discord.add_member(elsewhere, "ann", user_id=scene.id("ann"))
    async with fake_discord.connected(bot):
        await win_a_game(scene, "ann", "bob")
        none = await scene.cmd("apophis profile", "ann", channel=channel)
        assert "You have not finished a game on this server yet" in content(none)
        board = await scene.cmd("apophis leaderboard", "ann", channel=channel)
        assert "No game has been won here yet" in text_of(board.message)
        theirs = await scene.cmd("apophis profile", "ann", player=scene["bob"], channel=channel)
        assert (
            content(theirs) == f"<@{scene.id('bob')}> has not finished a game on this server yet."
        )


async def test_a_french_player_reads_records_in_french(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    scene["cid"].user.locale = "fr"  # reads, does not play
    async with fake_discord.connected(bot):
        none = await scene.cmd("apophis profile", "cid")
        assert content(none).startswith("Vous n’avez encore terminé aucune partie sur ce serveur.")
        assert content(none).endswith(f"rejoignez la prochaine{NARROW}!")
        await win_a_game(scene, "ann", "bob")
        text = text_of((await scene.cmd("apophis profile", "cid", player=scene["ann"])).message)
        assert "Parcours sur Apophis" in text and "Équipes sans IA: 1 partie — 1 gagnée" in text
        assert f"**Règles de base**{NARROW}: Intermédiaire 1/1" in text
        assert "1 lancement — 1 a touché Apophis, 1 dégât infligé" in text
        assert f"Victoire la plus rapide{NARROW}: 0:" in text
        assert "(règles de base, intermédiaire, 2 joueurs)" in text
        reply = await scene.cmd("apophis leaderboard", "cid")
        board = text_of(reply.message)
        assert "Classement de ce serveur" in board
        assert f"Victoires les plus rapides{NARROW}: Intermédiaire (10 min)" in board
        assert f"<@{scene.id('ann')}> et <@{scene.id('bob')}> (règles de base)" in board
        assert f"intervalle de confiance à 95{NARROW}%" in reply.message.embeds[0]["footer"]["text"]


#: The firsts of a first win as `win_a_game` wins: at medium, all-human, with its only
#: launch on target, in a few seconds.
FIRST_WIN = (
    "first win, first all-human win, first win with every launch on target and "
    "first win in under half the time"
)


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_each_first_shows_once_on_the_final_board_and_stays_in_the_profile(scene):
    table = await win_a_game(scene, "ann", "bob")
    board = await final_board(scene, table)
    together = f"<@{scene.id('ann')}> and <@{scene.id('bob')}>"  # the same firsts: one line
    assert f"Firsts: 🏅 {together}: {FIRST_WIN}" in board
    assert "🏅 8 firsts earned · ℹ️ to see them" in text_of(scene.board(table))  # (4 each)
    again = await win_a_game(scene, "bob", "ann")  # the same again earns nothing
    assert "🏅" not in await final_board(scene, again)
    hard = await win_a_game(scene, "cid", "ann", difficulty="hard")  # Cid's first game
    board = await final_board(scene, hard)
    at_hard = FIRST_WIN.replace("first win, ", "first win, first win at hard, ")
    assert f"🏅 <@{scene.id('cid')}>: {at_hard}" in board
    assert f"🏅 <@{scene.id('ann')}>: first win at hard\n" in board + "\n"
    advanced = await win_a_game(scene, "ann", rules="advanced")
    assert f"🏅 <@{scene.id('ann')}>: first advanced-rules win" in (
        await final_board(scene, advanced)
    )
    mine = text_of((await scene.cmd("apophis profile", "ann")).message)
    assert f"🏅 6 firsts of 6: • first win (game #{table.id})" in mine
    assert f"• first win at hard (game #{hard.id})" in mine
    assert f"• first advanced-rules win (game #{advanced.id})" in mine
    assert mine.index("first win at hard") < mine.index("all-human win")  # the list's order
    assert "🔥 Win streak: 4 wins (best: 4 wins)" in mine


async def test_a_streak_ends_with_a_loss_and_outlives_a_restart(fake_discord, make_bot):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    scene["cid"].user.locale = "fr"  # reads, does not play

    async def streak(reader: str, whose: str) -> str:
        reply = await scene.cmd("apophis profile", reader, player=scene[whose])
        return next(line for line in text_of(reply.message).splitlines() if "🔥" in line)

    french = f"🔥 Série de victoires{NARROW}: {{}} (record{NARROW}: {{}})"
    async with fake_discord.connected(bot):
        first = await win_a_game(scene, "ann", "bob")
        assert await streak("ann", "ann") == "🔥 Win streak: 1 win (best: 1 win)"
        assert await streak("cid", "bob") == french.format("1 victoire", "1 victoire")
        await win_a_game(scene, "ann", "bob")
        await lose_a_game(scene, "ann", "bob")
        assert await streak("ann", "ann") == "🔥 Win streak: 0 wins (best: 2 wins)"
        assert await streak("cid", "bob") == french.format("0 victoire", "2 victoires")
        await win_a_game(scene, "ann", "bob")
    scene.bot = make_bot()  # a restart
    async with fake_discord.connected(scene.bot):
        assert await streak("ann", "ann") == "🔥 Win streak: 1 win (best: 2 wins)"
        await win_a_game(scene, "ann", "bob")
        assert await streak("bob", "ann") == "🔥 Win streak: 2 wins (best: 2 wins)"
        reply = await scene.cmd("apophis profile", "cid", player=scene["ann"])
        firsts = text_of(reply.message).split("🏅", 1)[1]
        assert firsts.startswith(  # (the field's name, then its value)
            f" 4 premières fois sur 6: • première victoire (partie n° {first.id})\n"
        )


def profile_of(firsts: int, streak: Streak, crew: Streak | None = None) -> Profile:
    """Ann's profile with her first `firsts` firsts and these streaks."""
    tallies = [PlayerTally("basic", "medium", False, 9, 5, 0, 0, 0, 0)]
    if crew is not None:
        tallies.append(PlayerTally("basic", "medium", True, 5, 5, 0, 0, 0, 0))
    kinds = ("win", "hard", "people", "advanced", "on_target", "fast")[:firsts]
    earned = tuple(First(kind, n) for n, kind in enumerate(kinds, 1))
    return Profile(1, tuple(tallies), None, None, streak, crew or Streak(), earned)


@pytest.mark.parametrize(
    ("number", "english", "french"),
    [
        (0, "0 wins", "0 victoire"),
        (1, "1 win", "1 victoire"),
        (2, "2 wins", "2 victoires"),
        (5, "5 wins", "5 victoires"),
    ],
)
def test_streaks_are_counted_in_words_in_both_languages(number, english, french):
    best = max(number, 1)
    embed = profile_embed(profile_of(0, Streak(number, best), Streak(number, best)), "server", "en")
    people, crew, _ = embed.fields
    best_en = "1 win" if best == 1 else english
    assert f"🔥 Win streak: {english} (best: {best_en})" in people.value
    assert f"🔥 Win streak: {english} (best: {best_en})" in crew.value  # apart, alike here
    french_embed = profile_embed(profile_of(0, Streak(number, best)), "server", "fr")
    best_fr = "1 victoire" if best == 1 else french
    assert f"🔥 Série de victoires{NARROW}: {french} (record{NARROW}: {best_fr})" in (
        french_embed.fields[0].value
    )


def test_no_streak_line_before_a_first_win():
    embed = profile_embed(profile_of(0, Streak(0, 0)), "server", "en")
    assert "🔥" not in embed.fields[0].value


@pytest.mark.parametrize(
    ("number", "english", "french"),
    [
        (0, "🏅 0 firsts of 6", "🏅 0 première fois sur 6"),
        (1, "🏅 1 first of 6", "🏅 1 première fois sur 6"),
        (2, "🏅 2 firsts of 6", "🏅 2 premières fois sur 6"),
        (5, "🏅 5 firsts of 6", "🏅 5 premières fois sur 6"),
    ],
)
def test_firsts_are_counted_in_words_in_both_languages(number, english, french):
    (_, firsts) = profile_embed(profile_of(number, Streak()), "server", "en").fields
    assert firsts.name == english
    lines = firsts.value.splitlines()
    if number == 0:
        assert lines == ["None yet: the first game won earns one."]
    else:
        assert len(lines) == number and lines[0] == "• first win (game #1)"
    (_, firsts) = profile_embed(profile_of(number, Streak()), "server", "fr").fields
    assert firsts.name == french
    if number == 0:
        assert (
            firsts.value
            == f"Aucune pour l’instant{NARROW}: la première partie gagnée en apporte une."
        )
    else:
        assert firsts.value.splitlines()[0] == "• première victoire (partie n° 1)"
    assert mention(1) not in firsts.value  # (a profile's own person is named above)
