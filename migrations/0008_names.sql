-- 0008: players' names.
-- Why: the board's picture shows each seat with its player's name (a mention cannot be
-- drawn), and a board drawn after a restart must still know it; the name is the
-- player's display name in the server when they took the seat (NULL before 0008).

ALTER TABLE players ADD COLUMN name TEXT;
