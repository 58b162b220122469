-- 0007: languages and card display.
-- Why: what a channel sees follows its server's language (chosen with /apophis config,
-- else the server's Discord locale, remembered here) and card display (suits, or the
-- coloured-deck edition's colours); what one player sees, including their hand DM,
-- follows the last Discord locale seen from them, which must survive a restart.

ALTER TABLE guild_settings
    ADD COLUMN language_chosen INTEGER NOT NULL DEFAULT 0 CHECK (language_chosen IN (0, 1));

ALTER TABLE guild_settings ADD COLUMN discord_locale TEXT;

ALTER TABLE guild_settings
    ADD COLUMN cards TEXT NOT NULL DEFAULT 'suits' CHECK (cards IN ('suits', 'colours'));

CREATE TABLE user_locales (
    user_id INTEGER PRIMARY KEY,
    locale  TEXT NOT NULL
);
