"""The documents' pictures of the live table (docs/table-*.png), taken in headless Chromium.

Run: .venv/bin/python -m devtools.sample_table   (after `make client`; needs Debian's
chromium and chromium-driver, as the browser tests do)

`live`: the real bot with its web table against the fake Discord, and the browser.
`game`: a seeded game under way, whole, at a phone's width and a desktop's
(docs/table-phone.png, docs/table-desktop.png). `screens`: a lobby, a launch and the end
at a phone's width, in English and in French (docs/table-*-360-{en,fr}.png). `states`:
a first evening's states (the lobby's offer, a newcomer's rocket, a drop-in, a signal, a
leave with its crewmate, a launch) at a phone's width and a desktop's, in both languages
(docs/screens/table/). Each run draws the same pictures.
"""

from devtools.sample_table.live import chromium, live_table, open_game, wait

__all__ = ["chromium", "live_table", "open_game", "wait"]
