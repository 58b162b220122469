"""Draw every picture of the live table for the documents (see the package's docstring)."""

from __future__ import annotations

import asyncio

from devtools.sample_table import game, screens, states


async def main() -> None:
    await game.draw()
    await screens.draw_all()
    await states.draw(states.OUT)


if __name__ == "__main__":
    asyncio.run(main())
