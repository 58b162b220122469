"""The crew policy: a strong player of Apophis and a teammate first, deciding from one view.

`decide(view, time_left, absent=False, crewmates=())` is given a PlayerView (its own
hand and the table), the game time left and the seats AI crewmates play (public at the
table), nothing else, so it cannot peek at other hands or the deck. It plans
the rocket whose expected progress per team turn is best (fuel check passed, accuracy,
damage and deflection odds, fail-safe rerolls, the cards its own hand holds and those
its teammates probably hold, the turns left on the clock), then takes that plan's next
step: build, start or extend the launch sequence (completing teammates' sequences),
draw for what is missing, or scrap. It is deterministic: the same view and time give
the same decision.

The table is shared. The policy plans from the rocket the team has: while that rocket
holds a section a teammate built, or a launch card a teammate played (or one whose
player is not known), it never scraps it unless the rocket cannot fly: no sections
left in the depot can make it pass the fuel check (`scrap_no_fuel`), none can give it a
warhead that scores with fuel enough (`scrap_no_warhead`), its launch sequence is under
way on a rocket that cannot score (`scrap_sequence_dead`), or it cannot be finished
before the clock runs out while a new one can (`scrap_too_late`). A rocket of its own
it scraps only for a new one clearly better: expected progress per turn at least
`RESTART_MARGIN` times that of the best plan on the pad (`scrap_restart`). It adds to
any launch sequence under way on a rocket that can fly, and while a teammate builds on
the rocket (the top section is theirs) it starts the launch sequence only if launching
now is `LAUNCH_MARGIN` times better than the best plan that builds on.

It reads its teammates from the public record (`engine.crew.team`): before the turn of a
teammate who launches what they find (or one building the rocket whom nothing shows yet
to build on others' sections) it leaves only a rocket that can score or is on their way,
drawing otherwise (`draw_keep_launchable`), and lets a launcher choose when to launch;
among sections of one size it first takes one after which the rocket can score; on a
rocket whose top section a teammate built it follows the rockets teammates launched
(the team's evident plan) while that is at least `FOLLOW` times as good as its own
(beside people in basic rules, its sections whatever its own is worth:
`FOLLOW_PEOPLE_BASIC`); a rocket that cannot score and that a teammate has just added
to is left to them (`draw_leave_scrap`: one round after a section, `LEAVE_SEQUENCE`
after a launch card).
While the record shows the people at the table (not the seats of AI crewmates,
`crewmates`) build large sections first where one fits, or shows nothing of them yet, it
draws for its best plan's large section rather than settle for a nearly as good plan
that builds a smaller one; beside a person who builds only large ones, the rockets
people finished and launched are the evident plan on any pad, and before a person's
turn it adds no smaller section after which the rocket can score, unless that is its
plan's last or the rocket launched as it is would be worth `NEAR_BEST` of the plan
(`draw_keep_big`): a big builder launches a rocket not theirs once it can score.
It heeds the people's table talk (`engine.crew.talk`) where that costs it nothing: no
scrap while a person asks it not to or says they launch next turn (`draw_heed`); as
tie-breakers, no section of a colour a person said they will build, nor one after which
their launch next turn could not score, when a section of the same size toward the same
rocket, of a colour not on it yet and leaving a rocket that can score if its own
would, is left (it never gives up a launch, or a better move, for a signal); and it
says its own plan (`says`).
With `absent=True` it plays the seat of an absent player (the autopilot): their
sections and launch cards are kept as a teammate's, and their own rockets of the game
are the evident plan it carries on.

Each decision explains itself: a stable reason code (`reason`, one of `REASONS`) with
its parameters (`params`, for translations) and one English line (`text`, for hints):

- `build`: {"colour", "size" (1-3), "plan": the rocket in English, "damage"}.
- `launch_start`, `launch_extend`, `launch_complete`: {"cards", "damage", "deflect"}.
- `draw_for_plan`: {"short": cards lacking per colour, "plan"}; `draw_for_sequence`:
  {"suits": the colours the launch sequence still needs}; `draw_nothing`: {};
  `draw_keep_launchable`, `draw_leave_scrap` and `draw_keep_big`: {"plan"}; `draw_heed`:
  {"player": who asked, "signal": their signal's code}.
- `scrap_dead` (the rocket cannot fly: notices `scrap_no_fuel`, `scrap_no_warhead`,
  `scrap_sequence_dead`) and `scrap_restart` (`scrap_too_late`, `scrap_restart`):
  {"plan": the rocket aimed for after it}.
- `discard`: {"cards"}; `reroll`: {"step", "rerolls"}.
- Any of them: "turns_left" when fewer than 20 turns remain.

A move a teammate might not expect (every scrap, and a launch whose odds are poor)
also carries a public notice: `notice` (one of `NOTICES`), `notice_params` and one
English line `notice_text`, for the board. The notices and their parameters (chances
are shares of 1, rounded to 3 places; colours by name):

- `scrap_no_fuel`: {"fuel": booster points the rocket could reach at most, "points":
  its points then, "needed": the booster points the check would need}.
- `scrap_no_warhead`: {"warheads": the colours that score under these rules}: no
  warhead fits on it with fuel enough.
- `scrap_sequence_dead`: {"cause": "fuel" or "warhead", "fuel": its booster points,
  "needed": those the check needs}: a launch sequence is under way on a rocket that
  would fail the fuel check, or has no warhead; no section can be added any more.
- `scrap_too_late`: {"turns_left", "turns_needed"}: by estimate the rocket cannot be
  finished and launched in the turns left; a new one can.
- `scrap_restart`: {"gain": how many times better the new plan's progress per turn
  is}: the rocket is the crewmate's own, and starting over is clearly quicker.
- `launch_risky`: {"success": the chance the launch damages Apophis or adds a counter,
  "damage", "deflect", "hit": the accuracy check's chance, "explode": the chance the
  launch roll explodes the rocket (advanced rules; 0 in basic), "rerolls": fail-safe
  rerolls}: a launch this move starts, extends or completes succeeds less often than
  `RISKY`.

The plan a decision aims for is data too (`plan`, a `Target`, or None when there is
none): the target rocket's sections bottom to top, which the team already has and who
built them, and what this move adds to it (a section, cards to the launch sequence, or
the cards still lacking, which a draw is for).

The package in its parts: `plans` searches the rockets worth aiming at and scores them,
`choice` reads the table for planning and chooses the plans worth aiming at,
`play` takes the chosen plan's next move (or a discard), `decisions` is a decision as
data, `notices` words the public notices, and `team` reads the teammates.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable

from engine.crew.choice import (
    FOLLOW,
    FOLLOW_PEOPLE_BASIC,
    LAUNCH_MARGIN,
    RESTART_MARGIN,
    choose,
    read_setting,
)
from engine.crew.decisions import REASONS, Decision, Target
from engine.crew.notices import NOTICES, RISKY
from engine.crew.plans import CARD_COST, DEFLECT_WEIGHT, SHARED_LAUNCH, clear_cache
from engine.crew.play import LEAVE_SEQUENCE, discard_decision, play
from engine.crew.talk import allows, heard, heed, says, settle
from engine.crew.team import read
from engine.events import PlayerId
from engine.moves import legal_moves
from engine.signals import Said
from engine.views import Phase, PlayerView

#: Seconds a team takes for one turn, when the caller does not say.
DEFAULT_PACE = 6.0


def decide(
    view: PlayerView,
    time_left: float | None = None,
    pace: float = DEFAULT_PACE,
    absent: bool = False,
    crewmates: Collection[PlayerId] = (),
    said: Iterable[Said] = (),
) -> Decision | None:
    """The crew policy's move for the viewing player, or None when it has none to make.

    `time_left` is the game clock's remaining seconds (None: no clock); `pace` the
    seconds a team turn is expected to take, which together say how many turns remain.
    `absent`: the player is away and the crew plays their seat (the autopilot): it
    carries on their plan, their sections and launch cards as a teammate's.
    `crewmates`: the seats AI crewmates play (public at the table: the lobby and the
    board show them), whose way of building is not read as a person's (`engine.crew.team`).
    `said`: the signals said at the table (`engine.signals`): those of the people that
    still stand are heeded (`engine.crew.talk`).
    """
    moves = legal_moves(view)
    if not moves:
        return None
    table = view.table
    if table.phase is Phase.REROLL:
        step = (table.pending or {}).get("step")
        rerolls = (table.pending or {}).get("rerolls")
        return Decision(
            {"type": "reroll", "player": view.player},
            "reroll",
            {"step": step, "rerolls": rerolls},
            f"Reroll the failed {step} die: a fail-safe is left, and it serves nothing else.",
        )
    turns_left = math.inf if time_left is None else max(time_left, 0.0) / max(pace, 0.1)
    reading = read(view, absent, crewmates)
    setting = read_setting(view, reading, absent)
    if table.phase is Phase.DISCARD:
        return discard_decision(view, setting, turns_left)
    chosen = choose(view, setting, turns_left)
    decision = play(view, moves, setting, chosen, turns_left)
    asked = heard(view, said, crewmates)
    heeded = heed(moves, view, asked)
    if heeded is moves or allows(heeded, decision):
        return decision
    return settle(view, decision, play(view, heeded, setting, chosen, turns_left), asked)


def advises(view: PlayerView) -> bool:
    """Whether `decide` has a move for the viewing player now (their turn, a discard or a
    reroll decision; nothing during a reshuffle or once the game is over)."""
    return bool(legal_moves(view))


__all__ = [
    "CARD_COST",
    "DEFAULT_PACE",
    "DEFLECT_WEIGHT",
    "FOLLOW",
    "FOLLOW_PEOPLE_BASIC",
    "LAUNCH_MARGIN",
    "LEAVE_SEQUENCE",
    "NOTICES",
    "REASONS",
    "RESTART_MARGIN",
    "RISKY",
    "SHARED_LAUNCH",
    "Decision",
    "Target",
    "advises",
    "clear_cache",
    "decide",
    "says",
]
