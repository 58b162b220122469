"""A channel that stays clean: a finished game leaves its final board, which tells each
launch in one line, and its result; what it posted while it ran goes with it."""

from __future__ import annotations

import pytest

from bot.discord.pings import WAIT_BEFORE_PING
from bot.views import launches
from engine import events as ev
from tests.bot.helpers import Scene, bot_state, text_of

pytestmark = pytest.mark.e2e

ROCKET = ["3H", "4H", "5H", "KS", "QS"]  # a large red section and a medium yellow one
ALL_SUITS = ["2C", "2H", "2D", "2S"]


async def build_and_launch(scene: Scene, name: str) -> None:
    """`name` builds a red L and a yellow M with cards drawn meanwhile, then launches."""
    scene.live().game.hands[scene.live().game.players.index(scene.id(name))] += ROCKET
    await scene.cmd("build", name, colour="red", size="large")
    await scene.cmd("build", name, colour="yellow", size="medium")
    scene.live().game.hands[scene.live().game.players.index(scene.id(name))] += ALL_SUITS
    await scene.cmd("launch", name, cards=" ".join(ALL_SUITS))


def reports(scene: Scene) -> list:
    return [m for m in scene.public() if "Launch report" in text_of(m)]


@pytest.mark.scene(names=("ann", "bob"), timer=True)
async def test_a_finished_game_leaves_its_final_board_and_its_result(fake_discord, scene, timer):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    lobby = scene.board()
    scene.arrange(hands=[ROCKET + ALL_SUITS, ["6C"]], dice=[6, 1])  # a hit, no damage
    await scene.cmd("build", "ann", colour="red", size="large")
    await timer.advance(WAIT_BEFORE_PING)  # bob looks away
    await bot.outbox.drain()
    (ping,) = fake_discord.notified(scene["bob"])
    await scene.cmd("draw", "bob")
    await fake_discord.wait_for(lambda: ping.deleted)  # he played: it comes down
    await scene.cmd("build", "ann", colour="yellow", size="medium")
    await scene.cmd("draw", "bob")
    await scene.cmd("launch", "ann", cards=" ".join(ALL_SUITS))
    (report,) = await fake_discord.wait_for(lambda: reports(scene))
    await scene.cmd("board", "bob")  # posted again below: the lobby's message, a stub
    await fake_discord.wait_for(lambda: "moved down" in lobby.content)
    assert len(scene.public()) == 3  # the stub, the report, the board
    table.deadline = bot.service.now() - 1  # bob plays on as the clock runs out
    await scene.cmd("draw", "bob")
    await bot.outbox.drain()
    assert not table.open and table.game.outcome.value == "lost"
    board, result = scene.public()
    assert board.id == table.messages.board_id and "Apophis hits Earth" in result.content
    assert report.deleted and lobby.deleted
    assert fake_discord.notified(scene["bob"]) == [ping]  # pinged once, when away
    text = await scene.final_story(table)  # each launch: behind its Details
    assert f"🚀 Launches: 1. <@{scene.id('ann')}>: 🟥L 🟨M, 5 pts → hit, no effect" in text
    scene.assert_no_cards_in_public()


async def test_the_final_board_tells_every_launch_even_those_before_a_restart(
    fake_discord, make_bot
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    first = make_bot()
    scene = Scene(fake_discord, first, names=("ann",))
    async with fake_discord.connected(first):
        table = await scene.new_game("ann")
        old_board = scene.board()
        scene.arrange(hands=[[]], damage=1, dice=[6, 6])
        await build_and_launch(scene, "ann")
        await fake_discord.wait_for(lambda: reports(scene))
        await first.outbox.drain()
    second = make_bot()
    scene.bot = second
    async with fake_discord.connected(second):
        table = scene.live()
        (notice,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )
        await bot_state(lambda: table.messages.board_id == notice.id)
        scene.arrange(hands=[[]], damage=2, dice=[6, 6])
        await build_and_launch(scene, "ann")
        await second.outbox.drain()
        board = await scene.final_story(table)  # each launch: behind its Details
        assert "Victory" in board
        ann = f"<@{scene.id('ann')}>"
        assert f"1. {ann}: 🟥L 🟨M, 5 pts → hit, damage 2/3, deflection 1/5\n" in board
        assert f"2. {ann}: 🟥L 🟨M, 5 pts → hit, damage 3/3" in board
        assert old_board.deleted  # the board from before the restart went with the game


def logged(*events: ev.GameEvent) -> list[ev.GameEvent]:
    """`events` as the store logs them and they are read back."""
    return [ev.from_dict(e.to_dict()) for e in events]


def test_each_launch_is_one_line_in_the_servers_language():
    def built(colour: str, size: int) -> ev.GameEvent:
        return ev.SectionBuilt(1, colour, size, ("KH",) * size)

    def step(name: str, success: bool | None) -> ev.GameEvent:
        return ev.LaunchStep(name, 3, (), 0, 7, False, success)

    def launch(total: int, player: int = 1) -> ev.GameEvent:
        return ev.LaunchStarted(player, {}, total, 1)

    def ended(hit: bool) -> ev.GameEvent:
        return ev.LaunchEnded(hit, 2, 4)

    events = logged(
        built("blue", 1),
        ev.RocketScrapped(1, 1, 0),  # scrapped: not part of the next rocket
        built("red", 3),
        built("yellow", 1),
        launch(4),
        step("fuel", False),
        ended(False),
        built("red", 3),
        built("yellow", 2),
        launch(5),
        step("fuel", True),
        step("accuracy", False),
        ev.RerollUsed(1, "accuracy", 0),
        step("accuracy", True),  # the reroll hit
        step("damage", True),
        ev.ApophisDamaged(1, 2),
        ev.CounterAdded(1),
        ended(True),
        built("green", 1),
        built("yellow", 1),
        launch(2, player=-1),
        step("fuel", True),
        step("launch", False),
        ended(False),
        built("red", 1),
        built("yellow", 1),
        launch(2, player=2),
        step("fuel", True),
        step("accuracy", True),
        step("damage", False),
        step("deflection", None),
        ended(True),
        built("red", 2),
        launch(2),
        step("fuel", True),
        step("accuracy", False),
        ev.RerollOffered(1, "accuracy", 1),  # the game ended before the launcher chose
    )
    assert launches.summary(events, "en").splitlines() == [
        "1. <@1>: 🟥L 🟨S, 4 pts → not enough fuel",
        "2. <@1>: 🟥L 🟨M, 5 pts → hit, damage 1/3, deflection 1/5",
        "3. 🤖 Robot 1: 🟩S 🟨S, 2 pts → exploded",  # who launched: a crewmate in words
        "4. <@2>: 🟥S 🟨S, 2 pts → hit, no effect",
        "5. <@1>: 🟥M, 2 pts → missed",
    ]
    french = launches.summary(events, "fr").splitlines()
    assert french[0].startswith("1. <@1>\u202f: 🟥G 🟨P, 4 pts → ") and "fuel" not in french[0]
    assert french[1] == "2. <@1>\u202f: 🟥G 🟨M, 5 pts → touché, dégâts 1/3, déviation 1/5"
    assert french[2].startswith("3. 🤖 Robot 1\u202f: 🟩P 🟨P, 2 pts → ")
    assert launches.summary(logged(built("red", 1)), "en") is None  # no launch: no line
    many = logged(*[e for _ in range(40) for e in (built("red", 3), launch(3), ended(True))])
    text = launches.summary(many, "en")
    assert len(text) <= launches.FIELD_LIMIT and text.startswith("…\n")
    assert text.endswith("40. <@1>: 🟥L, 3 pts → hit, no effect")


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_a_moderators_skip_and_kick_go_with_the_game(scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", "cid")
    skipped = await scene.cmd("apophis skip", "ann")  # the host skips whoever plays
    kicked = await scene.cmd("apophis kick", "ann", player=scene["cid"])
    said = [m for m in scene.public() if m.id in (skipped.message.id, kicked.message.id)]
    assert len(said) == 2  # told to everyone while the game runs
    await scene.cmd("apophis end", "ann")
    await bot.outbox.drain()
    assert not table.open
    assert all(m.deleted for m in said)
    assert len(scene.public()) <= 2  # the final board and the result
