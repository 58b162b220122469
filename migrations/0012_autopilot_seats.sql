-- 0012: the seats the autopilot played.
-- Why: a game in which the autopilot played a person's seat is not an all-human result: it
-- counts with the games played beside AI crewmates in statistics, leaderboards and profiles.
-- Set in the transaction of the autopilot's first move for that seat.

ALTER TABLE players ADD COLUMN autopiloted INTEGER NOT NULL DEFAULT 0 CHECK (autopiloted IN (0, 1));
