-- 0002: per-server settings and each player's DM channel.
-- Why: moderators choose a moderator role, language and defaults per server, and the
-- bot keeps DM channel ids so it need not reopen a DM channel for every private hand.

CREATE TABLE guild_settings (
    guild_id           INTEGER PRIMARY KEY,
    moderator_role_id  INTEGER,
    language           TEXT NOT NULL DEFAULT 'en',
    default_difficulty TEXT NOT NULL DEFAULT 'medium'
                       CHECK (default_difficulty IN ('beginner', 'easy', 'medium', 'hard',
                                                     'custom')),
    default_rules      TEXT NOT NULL DEFAULT 'basic'
                       CHECK (default_rules IN ('basic', 'advanced'))
);

CREATE TABLE users (
    user_id       INTEGER PRIMARY KEY,
    dm_channel_id INTEGER NOT NULL
);
