-- 0005: board pictures, on or off per server (issue 14 planned it as 0007; numbered
-- here to follow the files present: the lead renumbers on merge if needed).
-- Why: a server can turn the board's picture off with /apophis config (on by default).

ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1
    CHECK (pictures IN (0, 1));
