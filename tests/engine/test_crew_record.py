"""The public record the crew reads its teammates from: the rockets of the game so far,
who built each section, who started and played each launch sequence, who scrapped what."""

from __future__ import annotations

from engine import Colour, Game, Size
from engine.game import PAST_ROCKETS_KEPT
from engine.views import PastRocket
from tests.engine.helpers import ANN, BOB, CID, table

R3, Y2, B1 = (Colour.RED, Size.LARGE), (Colour.YELLOW, Size.MEDIUM), (Colour.BLUE, Size.SMALL)


def test_launched_and_scrapped_rockets_are_kept_with_who_did_what():
    game = table(
        players=(ANN, BOB, CID),
        hands=[["2H", "3H", "4H", "7C", "5S"], ["5H", "6H", "6S", "7S"], ["8D", "9H", "9S"]],
        dice=[6, 6, 6],
    )
    game.build(ANN, "red", "large")
    game.build(BOB, "yellow", "medium")
    game.launch(CID, ["8D", "9H"])
    game.launch(ANN, ["7C", "5S"])  # the fourth suit: it launches
    game.build(BOB, "red", "medium")
    game.scrap(CID)
    assert game.public_view().past_rockets == (
        PastRocket((R3, Y2), (ANN, BOB), (CID, CID, ANN, ANN)),
        PastRocket(((Colour.RED, Size.MEDIUM),), (BOB,), (), scrapped_by=CID),
    )
    launched, scrapped = game.view_for(ANN).table.past_rockets
    assert launched.launched and not scrapped.launched


def test_the_record_is_saved_restored_and_bounded():
    game = table(hands=[["2H", "3H", "4H", "5S", "6S"], ["7H", "8H", "9H"]])
    game.build(ANN, "red", "large")
    game.scrap(BOB)
    data = game.save()
    assert data["past_rockets"] == [
        {"rocket": [["red", 3]], "builders": [ANN], "sequence_players": [], "scrapped_by": BOB}
    ]
    twin = Game.restore(data)
    assert twin.save() == data and twin.public_view() == game.public_view()
    del data["past_rockets"]  # saved before the engine kept them: none known
    assert Game.restore(data).public_view().past_rockets == ()
    for _ in range(PAST_ROCKETS_KEPT + 3):
        game.rocket, game.builders = [B1], [ANN]
        game.depot.discard(B1)
        game.scrap(game.active_player)
    kept = game.public_view().past_rockets
    assert len(kept) == PAST_ROCKETS_KEPT and all(p.rocket == (B1,) for p in kept)
