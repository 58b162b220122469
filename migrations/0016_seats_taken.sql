-- 0016: seats taken mid-game (a drop-in, a crewmate playing on for who left).
-- Why: a seat may change hands while a game is played; the seats it was dealt with stay apart
-- (a replay deals to them, a result counts them), those taken later have `dealt` 0.

ALTER TABLE players ADD COLUMN dealt INTEGER NOT NULL DEFAULT 1 CHECK (dealt IN (0, 1));
