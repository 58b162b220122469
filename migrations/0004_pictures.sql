-- 0004 (issue 14's number is 0007; renumbered to follow the files present): board pictures.
-- Why: a server can turn the board's picture off with /apophis config (on by default).

ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1
    CHECK (pictures IN (0, 1));
