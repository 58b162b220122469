-- 0006: how many AI crewmates played each ended game.
-- Why: statistics count games with crewmates apart from all-human games (a crewmate's
-- seat holds a negative id); games ended before this migration had none.

ALTER TABLE results ADD COLUMN crewmates INTEGER NOT NULL DEFAULT 0;
