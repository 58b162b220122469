-- 0014: the autopilot on by default, after 90 s.
-- Why: as in 0014_autopilot_on.sql; PostgreSQL changes the column's default in place.

ALTER TABLE guild_settings ALTER COLUMN autopilot_seconds SET DEFAULT 90;
