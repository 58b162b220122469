"""The live table on the web: the same games, played from a browser or as a Discord Activity.

A second way in beside Discord's messages, on the same service: one lock, one log per
game. `server` serves the client and sign-in, `sockets` each client's WebSocket, `feed`
the service's changes to them (bot.views.web_state words each state), `sessions` and
`oauth` who a client is, `limits` what outsiders may hold or send.

The protocol, over `/ws` (JSON text messages; their types are bot.views.table_state's):
- client → server: first `{"type": "hello", "channel": "<id>", "session": <token or null>,
  "language": "en"|"fr"|null}` (the Activity names the token its sign-in returned; a
  browser says null, and the session cookie its upgrade request carried signs it in);
  then `{"type": "move", "id": n, "custom_id": "<one its state offered>", "values":
  [...] (a picker's)}` (the custom id carries the state version it was offered at: a
  move on an older one is told the game moved on, not played), `{"type": "welcomed"}` (a
  newcomer closed the first game's welcome), or `{"type": "ping"}`.
- server → client: `{"type": "welcome", "user", "language", "labels"}`, then a `state`
  at once and after every change (bot.views.web_state); `{"type": "result", "id", "ok",
  "note"}` for each move; `{"type": "refused", "reason"}` for a message it cannot take
  (once a burst for messages sent too fast, the surplus dropped);
  `{"type": "pong"}`. Close codes: 4001 the session is over (sign in again), 4003 refused,
  1008 flooding, 1013 connecting too often (try again later).
"""
