"""AI crewmates: seated by the host in the lobby, playing their turns, resumed after a restart."""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalogs import TYPOGRAPHY, t
from bot.views import components
from engine import Phase
from engine.standin import standin_action
from tests.bot.helpers import Scene, play_as, text_of, time_passes
from tests.i18n.test_catalogs import messages

pytestmark = pytest.mark.e2e


async def open_lobby_with_crewmates(scene: Scene, crewmates: int, **options):
    """/apophis new by ann, then her clicks on "Add AI crewmate"; the lobby message."""
    lobby = (await scene.cmd("apophis new", "ann", **options)).message
    for _ in range(crewmates):
        reply = await scene.click(lobby, "crewadd", "ann")
        assert reply.response_type == 7  # the lobby redrawn
    return lobby


async def play_as_ann(scene: Scene, table) -> None:
    """Ann's turn, played as the crew policy would (through slash commands)."""
    assert (await play_as(scene, table, "ann")).ephemeral


@pytest.mark.scene(names=("ann", "bob"), timer=True)
async def test_one_person_and_two_crewmates_play_to_the_end(fake_discord, scene, timer):
    bot = scene.bot
    lobby = await open_lobby_with_crewmates(scene, 3, difficulty="beginner", rules="basic")
    refused = await scene.click(lobby, "crewadd", "ann")
    assert "full" in text_of(refused.message)
    refused = await scene.click(lobby, "crewdrop", "bob")
    assert "Only the host" in text_of(refused.message)
    await scene.click(lobby, "crewdrop", "ann")
    table = scene.live()
    assert table.seats == [scene.id("ann"), -1, -2]
    assert "🤖 Robot 2" in text_of(lobby)
    start = await scene.cmd("apophis start", "ann", first=scene["ann"])
    assert "game has started" in text_of(start.message)
    scene.arrange(damage=2)  # one hit from victory: a short game
    ann, turns = scene.id("ann"), 0
    while not table.game.is_over and turns < 200:
        await time_passes(
            timer,
            lambda: (
                table.game.is_over
                or (table.game.active_player == ann and table.game.phase is not Phase.RESHUFFLE)
            ),
        )
        if not table.game.is_over:
            await play_as_ann(scene, table)
            turns += 1
    assert table.status == "finished"  # the last move committed
    await bot.outbox.drain()
    board = text_of(scene.board(table))
    assert "🤖 Robot 1" in board and "🤖 Robot 2" in board
    assert len(fake_discord.dms(scene["ann"])) == 1  # her hand; crewmates get no DMs
    stats = await bot.store.stats(scene.guild.id)
    (tally,) = stats.tallies
    assert tally.games == 1 and tally.with_crewmates
    assert stats.fastest_wins == ()  # fastest wins are all-human teams'
    scene.assert_no_cards_in_public()


async def test_crewmates_resume_their_turns_after_a_restart(fake_discord, make_bot, timer):
    fake_discord.gateway.identify_interval = 0  # a test restart may identify again at once
    first = make_bot(timer=timer)  # time stands still: the bot stops before they move
    scene = Scene(fake_discord, first, names=("ann",))
    async with fake_discord.connected(first):
        await open_lobby_with_crewmates(scene, 2, difficulty="beginner")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        await scene.cmd("draw", "ann")
        if table.game.phase is Phase.DISCARD:
            await scene.cmd("discard", "ann", cards=table.game.hands[0][-1])
        assert table.game.active_player == -1
        version = table.version
    assert table.version == version  # the crewmate had not moved when the bot stopped
    second = make_bot(timer=timer)
    scene.bot = second
    async with fake_discord.connected(second):
        resumed = scene.live()
        ann = scene.id("ann")
        # both crewmates played (each move committed), and it is ann's turn again
        await time_passes(
            timer,
            lambda: (
                resumed.version >= version + 2
                and (resumed.game.active_player == ann or resumed.game.is_over)
            ),
        )
        assert any("Robot 1" in line for line in resumed.recent)


@pytest.mark.scene(names=("ann",), timer=True)
async def test_crewmates_do_not_play_on_alone(scene, timer):
    await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    table = scene.live()
    reply = await scene.leave_game("ann")
    assert "You left the game" in text_of(reply.message)
    await time_passes(timer, lambda: table.status == "abandoned")
    assert table.game.players == [-1]


async def play(scene: Scene, name: str, action: dict) -> None:
    """One action of `name`'s (data for `Game.apply`), through the slash commands."""
    kind = action["type"]
    if kind == "build":
        sizes = {1: "small", 2: "medium", 3: "large"}
        options = {"colour": action["colour"], "size": sizes[action["size"]]}
    elif kind in ("launch", "discard"):
        options = {"cards": " ".join(action["cards"])}
    else:
        options = {}
    reply = await scene.cmd(kind, name, **options)
    assert reply.ephemeral, kind


def last_actions(scene: Scene, table) -> list[str]:
    """The lines of the board's *Last actions*, as the channel reads them (beside the
    picture, all of them are behind Details)."""
    (embed,) = components.board_details(table).json()["embeds"]
    (field,) = [f for f in embed["fields"] if f["name"] in LAST_ACTIONS]
    return field["value"].split("\n")


LAST_ACTIONS = {t("en", "board.recent"), t("fr", "board.recent")}


def scrap_told(language: str, player: str) -> re.Pattern:
    """A line telling `player`'s scrap with one of the reasons the catalog words (as its
    language's typography spaces it)."""
    spaced = TYPOGRAPHY.get(language, str)
    catalog = {key: tuple(map(spaced, texts)) for key, texts in messages(language).items()}

    def pattern(text: str) -> str:  # a message, its placeholders matching anything
        return re.sub(r"\\\{\w+\\\}", ".+", re.escape(text))

    reasons = "|".join(
        pattern(text)
        for key, texts in catalog.items()
        if key.startswith("crew.why.")
        for text in texts
    )
    lines = [
        re.escape(text.format(player=player, why="WHY")).replace("WHY", f"(?:{reasons})")
        for key in ("crew.scrapped", "crew.scrapped_own")
        for text in catalog[key]
    ]
    return re.compile("|".join(lines))


#: The crewmate's scrap in the arranged position, as the board tells it.
NO_FUEL = {
    "en": "♻️ 🤖 Robot 1 scrapped the rocket: it cannot pass the fuel check, even with all the "
    "yellow that still fits (fuel 1 of 7 points, 2 needed).",
    "fr": "♻️ 🤖 Robot 1 a mis le missile au rebut\u202f: il ne peut pas réussir le contrôle du "
    "combustible, même avec tout le jaune qu’on peut encore y ajouter (combustible 1 sur "
    "7 points, il en faut 2).",
}


#: Game seconds Ann thinks over each move of hers.
THINKS = 30


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "fr"])
async def test_every_crewmate_scrap_is_told_on_the_board_with_its_reason(
    fake_discord, make_bot, language, timer
):
    """Ann (a person, played by the stand-in: a plan of her own, never a scrap) and a
    crewmate, to the end of a game. The crewmate first meets a rocket that cannot pass the
    fuel check and scraps it; each of its scraps is one line of *Last actions*, its
    reason in the server's language, in place of the plain line."""
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    scene.guild.preferred_locale = scene["ann"].user.locale = language
    crewmate = "🤖 Robot 1"
    plain = t(language, "event.scrapped", player=crewmate, sections=0, cards=0)
    plain = plain[: plain.index("(") + 1]  # "♻️ 🤖 Robot 1 scrapped the rocket ("
    told = scrap_told(language, crewmate)
    async with fake_discord.connected(bot):
        await open_lobby_with_crewmates(scene, 1, difficulty="hard", rules="basic")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table, ann = scene.live(), scene.id("ann")
        # Ann built the large red and the small blue, the crewmate the medium blue: only
        # the small yellow still fits, and 1 fuel of 7 points fails the check (2 needed).
        scene.arrange(
            rocket=[("red", 3), ("blue", 2), ("blue", 1)],
            builders=[ann, -1, ann],
            hands=[["9D"], ["10H", "3H", "6S"]],
        )
        seen, scraps, turns = 0, 0, 0
        while True:
            await time_passes(
                timer,
                lambda: (
                    not table.runtime.lock.locked()  # the last move committed and told
                    and (
                        table.game.is_over
                        or (
                            table.game.active_player == ann
                            and table.game.phase is not Phase.RESHUFFLE
                        )
                    )
                ),
            )
            await bot.outbox.drain()
            log = await bot.store.game_log(table.id)
            for logged in log[seen:]:
                if logged.actor == -1 and logged.action["type"] == "scrap":
                    scraps += 1
                    lines = last_actions(scene, table)
                    if scraps == 1:
                        assert NO_FUEL[language] in lines
                    assert any(told.fullmatch(line) for line in lines), lines
                    assert not any(line.startswith(plain) for line in lines), lines
            seen = len(log)
            if table.game.is_over or turns >= 60:
                break
            await timer.advance(THINKS)  # she takes her time: the clock runs out in a few turns
            if not table.game.is_over:
                await play(scene, "ann", standin_action(table.game.view_for(ann)))
            turns += 1
        assert scraps >= 1
        scene.assert_no_cards_in_public()


#: The crewmate's launch in the arranged position, as the board tells it.
RISKY = {
    "en": "🔢 🤖 Robot 1 added 🟥 🟦 🟨 to the launch sequence (4/4) for a risky launch: 8% "
    "chance to damage Apophis.",
    "fr": "🔢 🤖 Robot 1 a ajouté 🟥 🟦 🟨 à la séquence de lancement (4/4) pour un lancement "
    "risqué\u202f: 8\u202f% de chances d’endommager Apophis.",
}


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_crewmates_risky_launch_is_told_with_its_odds(
    fake_discord, make_bot, language, timer
):
    """Ann started the launch sequence of a small red and a small yellow: the crewmate
    completes it (the best it can do), and the board says the launch is risky, with its
    odds, in the line that tells the cards it played."""
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    scene.guild.preferred_locale = scene["ann"].user.locale = language
    async with fake_discord.connected(bot):
        await open_lobby_with_crewmates(scene, 1, difficulty="beginner", rules="basic")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table, ann = scene.live(), scene.id("ann")
        scene.arrange(
            rocket=[("red", 1), ("yellow", 1)],
            builders=[ann, ann],
            sequence=["5C"],
            sequence_by=[ann],
            hands=[["6H"], ["7H", "2D", "KS", "4S"]],
            dice=[1],  # the accuracy roll misses
        )
        await scene.cmd("draw", "ann")
        await time_passes(
            timer, lambda: table.game.rocket == [] and not table.runtime.lock.locked()
        )
        await bot.outbox.drain()
        lines = last_actions(scene, table)
        assert RISKY[language] in lines
        played = t(language, "event.sequence", player="🤖 Robot 1", played="🟥 🟦 🟨", length=4)
        assert played not in lines  # told once, with its odds
