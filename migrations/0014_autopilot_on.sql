-- 0014: the autopilot on by default, after 90 s.
-- Why: an absent player held the table up until staff skipped them. A server's row made
-- from now on starts at 90 s; rows already stored keep their value (0 there was the
-- server's "off", chosen or left as it was, and stays so). SQLite cannot change a
-- column's default: the table is built again, the same but for that default.

CREATE TABLE guild_settings_0014 (
    guild_id           INTEGER PRIMARY KEY,
    moderator_role_id  INTEGER,
    language           TEXT NOT NULL DEFAULT 'en',
    default_difficulty TEXT NOT NULL DEFAULT 'medium'
                       CHECK (default_difficulty IN ('beginner', 'easy', 'medium', 'hard',
                                                     'custom')),
    default_rules      TEXT NOT NULL DEFAULT 'basic'
                       CHECK (default_rules IN ('basic', 'advanced')),
    turn_pings         INTEGER NOT NULL DEFAULT 1 CHECK (turn_pings IN (0, 1)),
    pictures           INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1)),
    language_chosen    INTEGER NOT NULL DEFAULT 0 CHECK (language_chosen IN (0, 1)),
    discord_locale     TEXT,
    cards              TEXT NOT NULL DEFAULT 'suits' CHECK (cards IN ('suits', 'colours')),
    threads            INTEGER NOT NULL DEFAULT 0 CHECK (threads IN (0, 1)),
    autopilot_seconds  INTEGER NOT NULL DEFAULT 90
                       CHECK (autopilot_seconds = 0 OR autopilot_seconds BETWEEN 30 AND 300)
);

INSERT INTO guild_settings_0014 (guild_id, moderator_role_id, language, default_difficulty,
                                 default_rules, turn_pings, pictures, language_chosen,
                                 discord_locale, cards, threads, autopilot_seconds)
    SELECT guild_id, moderator_role_id, language, default_difficulty, default_rules,
           turn_pings, pictures, language_chosen, discord_locale, cards, threads,
           autopilot_seconds
    FROM guild_settings;

DROP TABLE guild_settings;

ALTER TABLE guild_settings_0014 RENAME TO guild_settings;
