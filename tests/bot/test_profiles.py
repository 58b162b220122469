"""/apophis profile and /apophis leaderboard through the fake Discord, in English and French."""

from __future__ import annotations

import pytest

from tests.bot.helpers import Scene, content, text_of

pytestmark = pytest.mark.e2e

ALL_SUITS = ["2C", "2H", "2D", "2S"]
NARROW = "\u202f"


async def win_a_game(scene: Scene, *players: str) -> None:
    """The first player's launch destroys Apophis (a medium game, basic rules)."""
    table = await scene.new_game(*players, difficulty="medium")
    scene.arrange(
        hands=[ALL_SUITS, *(["3C"] for _ in players[1:])],
        rocket=[("red", 3), ("yellow", 1)],
        damage=2,
        dice=[6, 6],
    )
    await scene.cmd("launch", players[0], cards=" ".join(ALL_SUITS))
    assert not table.open


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
    assert f"<@{scene.id('bob')}>'s games" in bobs and "0 launches — 0 hits on Apophis" in bobs

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
