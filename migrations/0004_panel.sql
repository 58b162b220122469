-- 0004: turn pings per server, and the one hand DM of each player in each game.
-- Why: a server may switch turn pings off; each player's hand comes by one DM per game,
-- edited as the hand changes, and it must still be edited (not sent anew) after a restart.

ALTER TABLE guild_settings
    ADD COLUMN turn_pings INTEGER NOT NULL DEFAULT 1 CHECK (turn_pings IN (0, 1));

CREATE TABLE hand_dms (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
