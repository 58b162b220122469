"""An automatic person at the fake Discord: makes a chosen move the way people make it.

Mostly from their hand panel (opened once with the board's My hand button, then one
click a move, kept current by the bot), now and then by typing a slash command.
"""

from __future__ import annotations

import random
from typing import Any

from devtools.fakediscord import Channel, FakeDiscord, Member, Message

#: Seconds a person waits for their panel to show the move's turn before refreshing it.
PANEL_PATIENCE = 5.0
SIZE_NAMES = {1: "small", 2: "medium", 3: "large"}


class Person:
    """One member of the demo's table and the messages they act on."""

    def __init__(
        self,
        fake: FakeDiscord,
        channel: Channel,
        member: Member,
        rng: random.Random,
        typed_share: float = 0.15,
    ) -> None:
        self.fake, self.channel, self.member = fake, channel, member
        self.rng, self.typed_share = rng, typed_share

    @property
    def name(self) -> str:
        return self.member.user.name

    async def play(
        self, action: dict[str, Any], game_id: int, version: int, board: Message
    ) -> None:
        """Make `action` (engine form) on the game at `version`."""
        if self.rng.random() < self.typed_share and action["type"] not in ("reroll", "accept"):
            await self.typed(action)
            return
        panel = await self.panel(game_id, version, board)
        if action["type"] == "discard" and await self.discard(panel, action["cards"]):
            return
        custom_id, values = self.control(panel, action)
        if custom_id is None:
            await self.typed(action)
        elif values is None:
            await answered(await self.fake.click(panel, custom_id, user=self.member))
        else:
            await answered(await self.fake.select(panel, custom_id, values, user=self.member))

    async def discard(self, panel: Message, cards: list[str]) -> bool:
        """Press each card of `cards` on the panel, the last one discarding them all (typed,
        should the panel stop offering them); False, nothing done, if the panel offers no
        card buttons."""
        first = {cards[0]}
        if (
            _with_cards(panel, "pick", first) is None
            and _with_cards(panel, "discard", first) is None
        ):
            return False
        chosen: set[str] = set()
        for card in cards:
            chosen.add(card)
            custom_id = _with_cards(panel, "pick", chosen) or _with_cards(panel, "discard", chosen)
            if custom_id is None:
                await self.typed({"type": "discard", "cards": cards})
                return True
            await answered(await self.fake.click(panel, custom_id, user=self.member))
        return True

    async def typed(self, action: dict[str, Any]) -> None:
        kind, options = action["type"], {}
        if kind == "build":
            options = {"colour": action["colour"], "size": SIZE_NAMES[action["size"]]}
        elif kind in ("launch", "discard"):
            options = {"cards": " ".join(action["cards"])}
        interaction = await self.fake.invoke(
            kind, user=self.member, channel=self.channel, **options
        )
        await answered(interaction)

    # ------------------------------------------------------------------ panel

    def latest_panel(self) -> Message | None:
        """The newest panel shown to this person (a private message with panel controls)."""
        for message in reversed(self.fake.messages(self.channel, seen_by=self.member)):
            if message.ephemeral and any(
                c.get("custom_id", "").startswith(("apo:h:", "apo:p:"))
                for c in message.iter_components()
            ):
                return message
        return None

    async def panel(self, game_id: int, version: int, board: Message) -> Message:
        """This person's panel, showing the game at `version` (opened or refreshed if need be)."""
        if self.latest_panel() is None:
            hand = _control(board, "b", "hand")
            await answered(await self.fake.click(board, hand, user=self.member))

        def current():
            panel = self.latest_panel()
            return panel if panel is not None and _version(panel) == (game_id, version) else None

        try:
            return await self.fake.wait_for(current, timeout=PANEL_PATIENCE)
        except TimeoutError:  # the bot could not refresh it: press Refresh
            panel = self.latest_panel()
            if panel is None:  # My hand was answered by no panel (the game ended meanwhile)
                raise LookupError(f"no panel was shown to {self.name}") from None
            await answered(
                await self.fake.click(panel, _control(panel, "h", "refresh"), user=self.member)
            )
            return await self.fake.wait_for(
                current,
                timeout=PANEL_PATIENCE,
                description=f"{self.name}'s panel at move {version}, after Refresh",
            )

    @staticmethod
    def control(panel: Message, action: dict[str, Any]) -> tuple[str | None, list | None]:
        """The panel's button (values None) or select for `action`; None if it has none."""
        kind = action["type"]
        ids = [
            c["custom_id"]
            for c in panel.iter_components()
            if "custom_id" in c and not c.get("disabled")
        ]
        moves = _find(ids, "p", "build")  # the select of the turn's other moves, if any
        offered = [o["value"] for o in panel.component(moves).get("options", [])] if moves else []
        if kind in ("draw", "scrap", "reroll", "accept"):
            button = _find(ids, "h", kind)
            if button is None and kind in offered:  # Scrap: in the select
                return moves, [kind]
            return button, None
        if kind == "build":
            section = f"{action['colour']}.{action['size']}"
            return (moves, [section]) if section in offered else (None, None)
        if kind == "launch":
            # Which card of a suit goes in does not matter (each is worth 1): the suits do.
            wanted = {card[-1] for card in action["cards"]}
            button = _find(ids, "h", "launch", any_arg=True)
            if button is not None and {c[-1] for c in _parts(button)[5].split(".")} == wanted:
                return button, None
            for value in offered:  # a part of the launch, in the select of moves
                part = value.removeprefix("launch:").split(".")
                if value.startswith("launch:") and {c[-1] for c in part} == wanted:
                    return moves, [value]
            select = _find(ids, "p", "launch")
            if select is None:
                return None, None
            offered = [o["value"] for o in panel.component(select).get("options", [])]
            return select, [card for card in offered if card[-1] in wanted]
        return _find(ids, "p", kind), list(action["cards"])


async def answered(interaction) -> None:
    await interaction.wait_response(timeout=10)


def _parts(custom_id: str) -> list[str]:
    return custom_id.split(":")


def _version(panel: Message) -> tuple[int, int] | None:
    for component in panel.iter_components():
        parts = _parts(component.get("custom_id", ""))
        if len(parts) >= 5 and parts[0] == "apo":
            return int(parts[2]), int(parts[3])
    return None


def _find(
    ids: list[str], kind: str, action: str, arg: str | None = None, *, any_arg: bool = False
) -> str | None:
    """The custom id of that kind and action (and arg: none, this one, or any_arg: some)."""
    for custom_id in ids:
        parts = _parts(custom_id)
        if parts[1] != kind or parts[4] != action:
            continue
        if (any_arg and len(parts) > 5) or (not any_arg and parts[5:] == ([arg] if arg else [])):
            return custom_id
    return None


def _with_cards(panel: Message, action: str, cards: set[str]) -> str | None:
    """The custom id of the panel's enabled button for `action` carrying exactly `cards`."""
    for component in panel.iter_components():
        parts = _parts(component.get("custom_id", ""))
        if len(parts) < 5 or parts[1] != "h" or parts[4] != action or component.get("disabled"):
            continue
        if set(parts[5].split(".") if len(parts) > 5 else ()) == cards:
            return component["custom_id"]
    return None


def _control(message: Message, kind: str, action: str) -> str:
    ids = [c["custom_id"] for c in message.iter_components() if "custom_id" in c]
    found = _find(ids, kind, action)
    if found is None:
        raise LookupError(f"no {action} control on message {message.id}: {ids}")
    return found
