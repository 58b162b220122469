-- 0020: each player's latest signal to the team (table talk) in a game in play.
-- Why: the team reads the latest signals on the board and the live table, and the crewmates
-- heed them; they must come back after a restart. One row a player and game, replaced by
-- their next signal in one statement; read back for the games in play at start-up.

CREATE TABLE signals (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    player     INTEGER NOT NULL,
    signal     TEXT    NOT NULL,
    until_turn INTEGER NOT NULL,
    said_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;
