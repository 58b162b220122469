-- 0003: one result row per ended game, for statistics.
-- Why: statistics (wins, losses, fastest wins per server) must not need the games'
-- JSON states; the row is written in the same transaction that ends the game.

CREATE TABLE results (
    game_id           INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    rules             TEXT    NOT NULL,
    difficulty        TEXT    NOT NULL,
    length_seconds    INTEGER NOT NULL,
    players           INTEGER NOT NULL,
    outcome           TEXT    NOT NULL CHECK (outcome IN ('destroyed', 'deflected', 'lost',
                                                          'abandoned')),
    duration_seconds  REAL    NOT NULL,
    time_left_seconds REAL    NOT NULL,
    ended_at          REAL    NOT NULL
);

CREATE INDEX results_by_guild ON results (guild_id, outcome, duration_seconds);
