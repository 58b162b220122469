"""Records where there is no server: two group DMs with their games (the app installed to
some of their people), the bot's DM, and a server beside them. Each conversation's history
lists its own games; a game is replayed where it was played or by whoever played it, and
refused alike to anyone else, whether or not it exists; a profile says what it covers
(one's own games in every DM and group DM, someone else's in this conversation alone);
leaderboards and statistics say they are a server's; a server's records are as they were.
The store's reads of a conversation on both databases."""

from __future__ import annotations

import copy
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n.catalogs import t
from bot.lobby_settings import LobbySettings
from bot.store.records import Profile
from bot.store.store import Store
from tests.bot.helpers import Recipient, Scene, content, text_of
from tests.bot.test_history import numbers
from tests.bot.test_profiles import ALL_SUITS
from tests.store.helpers import commit, start
from tests.store.test_records_store import ANN, BOB, CID, Games, tally

#: The group DMs' channels in the store's own tests.
HERE, THERE = 500, 600


def group_dm(scene: Scene, *names: str, newcomers: tuple[str, ...] = ()) -> Scene:
    """The scene's people `names` and new people `newcomers` (each having installed the
    app) in a new group DM, played as a Scene of its own."""
    fake = scene.fake
    other = copy.copy(scene)
    other.guild = None
    other.members = {name: scene[name] for name in names}
    for name in newcomers:
        user = fake.add_user(name)
        fake.install_for_user(user)
        other.members[name] = Recipient(user=user)
    other.channel = fake.add_group_dm(*(member.user for member in other.members.values()))
    return other


async def ended(scene: Scene, *players: str) -> int:
    """A game the first player opens, starts with the others and ends at once (abandoned)."""
    table = await scene.new_game(*players)
    await scene.cmd("apophis end", players[0])
    assert not table.open
    return table.id


async def won(scene: Scene, *players: str) -> int:
    """A game the first player's launch wins at once, as test_profiles.win_a_game's (on a
    stacked deck: it has no replay)."""
    table = await scene.new_game(*players, difficulty="medium")
    scene.arrange(
        hands=[ALL_SUITS, *(["3C"] for _ in players[1:])],
        rocket=[("red", 3), ("yellow", 1)],
        damage=2,
        dice=[6, 6],
        active=0,  # the first player's turn, whoever the start made first
    )
    await scene.cmd("launch", players[0], cards=" ".join(ALL_SUITS))
    assert not table.open
    return table.id


async def two_group_dms(fake, bot) -> tuple[Scene, Scene]:
    """Ann (who installed the app) and Bob in one group DM; Ann, Dee and Eve (both having
    installed it) in another."""
    first = Scene(fake, bot, names=("ann", "bob"), group_dm=True)
    return first, group_dm(first, "ann", newcomers=("dee", "eve"))


def gifs(scene: Scene) -> list:
    return [
        m for m in scene.public() if m.attachments and m.attachments[0].filename.endswith(".gif")
    ]


async def test_each_conversation_lists_its_own_games_and_replays_what_its_caller_may_see(
    fake_discord, make_bot
):
    bot = make_bot()
    one, other = await two_group_dms(fake_discord, bot)
    async with fake_discord.connected(bot):
        first_win = await won(one, "ann", "bob")
        first = await ended(one, "ann", "bob")
        theirs = await ended(other, "ann", "dee")
        mine = await one.cmd("apophis history", "ann")
        there = await other.cmd("apophis history", "eve")  # never played: the place's games
        quiet = fake_discord.add_group_dm(other["dee"].user, one["bob"].user)
        empty = await other.cmd("apophis history", "dee", channel=quiet)
        # Eve is in the other group DM and played nothing; Dee played there, not here.
        refusals = {
            name: await other.cmd("apophis replay", name, game=first) for name in ("dee", "eve")
        }
        nothing = await other.cmd("apophis replay", "eve", game=999_999)
        gifs_refused = gifs(other)
        watched = await fake_discord.invoke(
            "apophis replay", user=other["eve"].user, channel=other.channel, game=theirs
        )
        await watched.wait_response()
        ours = await watched.wait_reply()  # a game of this conversation, Eve in no seat
        asked = await fake_discord.invoke(
            "apophis replay", user=other["ann"].user, channel=other.channel, game=first
        )
        await asked.wait_response()
        hers = await asked.wait_reply()  # her own game, from the other group DM
        posted = hers.attachments[0].filename
        stepped = await other.click(hers, "next", "eve")  # whoever sees it may step through
    assert numbers(mine.message) == [first, first_win]
    assert "This conversation's last games" in text_of(mine.message) and not mine.ephemeral
    assert numbers(there.message) == [theirs]
    assert "No game has ended in this conversation yet" in text_of(empty.message)
    unseen = t("en", "replay.error.unseen", id=first)
    for name, refused in refusals.items():
        assert refused.ephemeral and content(refused) == unseen, name
    # A game that does not exist is refused in the same words: nothing tells them apart.
    assert content(nothing) == unseen.replace(str(first), "999999")
    assert gifs_refused == []
    assert watched.response_type == 5 and not watched.ephemeral
    assert ours.attachments[0].filename == f"apophis-replay-{theirs}.gif"
    assert asked.response_type == 5 and not asked.ephemeral
    assert posted == f"apophis-replay-{first}.gif"
    assert hers.channel_id == other.channel.id
    assert stepped.response_type == 7 and f"Game #{first} · the deal" in text_of(hers)


async def test_a_profile_where_there_is_no_server_says_what_it_counts(fake_discord, make_bot):
    bot = make_bot()
    one, other = await two_group_dms(fake_discord, bot)
    other["eve"].user.locale = "fr"
    async with fake_discord.connected(bot):
        await won(one, "ann", "bob")
        await ended(one, "ann", "bob")
        await won(other, "ann", "dee")
        own = await other.cmd("apophis profile", "ann")
        in_dm = await fake_discord.invoke(
            "apophis profile",
            user=one["ann"].user,
            channel=fake_discord.world.dm_channel(one["ann"].user),
        )
        await in_dm.wait_response()
        hers = await other.cmd("apophis profile", "dee", player=one["ann"].user)
        bobs = await other.cmd("apophis profile", "dee", player=one["bob"].user)
        eves = await other.cmd("apophis profile", "eve")
        ranked = {
            command: await other.cmd(f"apophis {command}", name)
            for command, name in (("leaderboard", "dee"), ("stats", "eve"))
        }
    ann = one.id("ann")
    for profile in (own, in_dm):  # hers, in a group DM or the bot's DM: every DM game
        text = text_of(profile.message)
        assert profile.ephemeral and "Your games in DMs and group DMs" in text
        assert "All-human teams: 2 games — 2 won, 1 abandoned" in text
        assert "2 launches — 2 hits on Apophis, 2 damage dealt" in text
    text = text_of(hers.message)  # Ann's, read by Dee: this conversation's game alone
    assert hers.ephemeral and f"<@{ann}>'s games in this conversation." in text
    assert "All-human teams: 1 game — 1 won" in text and "abandoned" not in text
    assert "1 launch — 1 hit on Apophis" in text
    # Bob played in the other group DM only: Dee sees none of it.
    assert content(bobs) == f"<@{one.id('bob')}> has not finished a game in this conversation yet."
    assert content(eves).startswith("Vous n’avez encore terminé aucune partie en message privé")
    assert ranked["leaderboard"].ephemeral
    assert content(ranked["leaderboard"]) == t("en", "error.server_records")
    assert content(ranked["stats"]) == t("fr", "error.server_records")


async def test_a_servers_records_leave_its_peoples_direct_games_out(fake_discord, make_bot):
    """Ann and Bob play on a server and in a group DM: the server's history, profiles,
    statistics and leaderboard count the server's game alone; Ann may replay her group
    DM's game there, Cid (on the server, not in it) may not."""
    bot = make_bot()
    server = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    fake_discord.install_for_user(server["ann"].user)
    away = group_dm(server, "ann", "bob")
    async with fake_discord.connected(bot):
        here = await won(server, "ann", "bob")
        await won(away, "ann", "bob")
        there = await ended(away, "ann", "bob")
        history = await server.cmd("apophis history", "cid")
        profile = await server.cmd("apophis profile", "ann")
        stats = await server.cmd("apophis stats", "bob")
        board = await server.cmd("apophis leaderboard", "bob")
        refused = await server.cmd("apophis replay", "cid", game=there)
        asked = await fake_discord.invoke(
            "apophis replay", user=server["ann"].user, channel=server.channel, game=there
        )
        await asked.wait_response()
        replayed = await asked.wait_reply()
        direct = await away.cmd("apophis profile", "ann")
    assert numbers(history.message) == [here]
    assert "This server's last games" in text_of(history.message)
    text = text_of(profile.message)
    assert f"<@{server.id('ann')}>'s games on this server." in text
    assert "All-human teams: 1 game — 1 won" in text
    assert re.search(r"\b1 game\b", text_of(stats.message)) and "2 games" not in text_of(
        stats.message
    )
    fastest = text_of(board.message)
    assert fastest.count("1. 0:") == 1 and "2. " not in fastest
    assert content(refused) == t("en", "replay.error.unseen", id=there)
    assert replayed.attachments[0].filename == f"apophis-replay-{there}.gif"
    assert "All-human teams: 1 game — 1 won, 1 abandoned" in text_of(direct.message)


# ------------------------------------------------------------------ the store


@pytest.fixture(params=("sqlite", "postgresql"))
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A new store on each backend."""
    if request.param == "sqlite":
        database = str(tmp_path / "apophis.sqlite3")
    else:
        database = request.getfixturevalue("postgres_url")
    opened = await Store.open(database)
    yield opened
    await opened.close()


class InConversation(Games):
    """Games played to their end through the store in one DM or group DM (no server)."""

    def __init__(self, store: Store, channel: int) -> None:
        super().__init__(store)
        self.channel = channel

    async def open(self, players: list[int], **options) -> tuple[int, object]:
        record, game = await start(self.store, players, channel=self.channel, guild=0, **options)
        return record.id, game


async def test_a_conversations_games_and_profiles_in_the_store(store: Store):
    here, there = InConversation(store, HERE), InConversation(store, THERE)
    fastest = await here.win([ANN, BOB, CID], seconds=200.0, left=CID)
    slower = await here.win([ANN, BOB], seconds=400.0)
    crewed = await here.win([ANN, -1], seconds=100.0)
    lost = await here.lose([BOB, ANN])
    game_id, game = await here.open([ANN, BOB])
    await commit(store, game_id, 0, game, {"type": "end", "reason": "host"}, now=1_050.0)
    await here.open([ANN, BOB])  # still in play: not listed, not counted
    # A lobby never started: no game.
    await store.create_lobby(0, THERE + 1, ANN, LobbySettings("basic", "medium", 15))
    elsewhere = await there.win([ANN], seconds=50.0)
    await Games(store).win([ANN, BOB])  # on a server

    listed = await store.recent_games_in_conversation(HERE, 10)
    assert [record.id for record in listed] == [game_id, lost, crewed, slower, fastest]
    assert listed[-1].starting_players == (ANN, BOB, CID) and listed[-1].players == (ANN, BOB)
    assert [r.id for r in await store.recent_games_in_conversation(HERE, 2)] == [game_id, lost]
    assert [r.id for r in await store.recent_games_in_conversation(THERE, 10)] == [elsewhere]
    assert await store.recent_games_in_conversation(THERE + 1, 10) == []

    anns = await store.conversation_profile(HERE, ANN)
    assert anns.tallies == (
        tally(games=3, wins=2, abandoned=1, launches=2, hits=2, damage=2),
        tally(crew=True, games=1, wins=1, launches=1, hits=1, damage=1),
    )
    assert (anns.fastest_win.game_id, anns.fastest_win.duration_seconds) == (fastest, 200)
    assert anns.fastest_win_with_crewmates.game_id == crewed
    # Counted as the tallies count every DM's games together: alike for whoever played in
    # one conversation only, and every DM's for Ann.
    assert await store.conversation_profile(HERE, BOB) == await store.profile(0, BOB)
    assert await store.conversation_profile(HERE, CID) == await store.profile(0, CID)
    assert (await store.profile(0, ANN)).tallies[0] == tally(
        games=4, wins=3, abandoned=1, launches=3, hits=3, damage=3
    )
    assert await store.conversation_profile(THERE, BOB) == Profile(BOB, (), None, None)
