-- 0011: game night: Play again, and an autopilot for absent players.
-- Why: a Play again lobby lists everyone who played the channel's last game, each invited
-- back to their seat, and must still after a restart; a server may let a crewmate play the
-- turns of a player gone quiet for some seconds (0, the default: never).

-- People invited to a lobby, each to their seat of the game played before it (a person
-- not invited who joins sits after every invited seat).
CREATE TABLE invitations (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- Play again is taken only from a channel's latest game (one played in a thread of the
-- channel included), found through these indexes.
CREATE INDEX games_latest_in_channel ON games (channel_id, id);
CREATE INDEX games_latest_from_channel ON games (parent_channel_id, id);

ALTER TABLE guild_settings ADD COLUMN autopilot_seconds INTEGER NOT NULL DEFAULT 0
    CHECK (autopilot_seconds = 0 OR autopilot_seconds BETWEEN 30 AND 300);
