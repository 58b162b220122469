-- 0001: games, their seats and the append-only log of accepted actions.
-- Why: a game in progress must survive any restart with every card where it was,
-- and be replayable from its seed and its log (issue 3).

-- One row per game, from lobby to result. A lobby has no engine state yet; a
-- started game has its seed, start player, state (JSON of engine Game.save()) and a
-- clock that is either running (deadline, unix time) or frozen (seconds remaining).
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    rules            TEXT    NOT NULL CHECK (rules IN ('basic', 'advanced')),
    difficulty       TEXT    NOT NULL
                     CHECK (difficulty IN ('beginner', 'easy', 'medium', 'hard', 'custom')),
    length_seconds   INTEGER NOT NULL CHECK (length_seconds > 0),
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    seed             INTEGER,
    start_player     INTEGER,
    state            TEXT,
    -- bumped by every accepted action: equals the number of rows in the log
    version          INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    board_message_id INTEGER,
    clock_deadline   REAL,
    clock_remaining  REAL CHECK (clock_remaining >= 0),
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    started_at       REAL,
    ended_at         REAL,
    outcome          TEXT,
    CHECK (clock_deadline IS NULL OR clock_remaining IS NULL),
    CHECK (status <> 'lobby' OR (state IS NULL AND version = 0)),
    CHECK (status <> 'active' OR (state IS NOT NULL AND seed IS NOT NULL
                                  AND start_player IS NOT NULL AND started_at IS NOT NULL
                                  AND (clock_deadline IS NOT NULL OR clock_remaining IS NOT NULL))),
    CHECK (CASE status
               WHEN 'finished' THEN outcome IN ('destroyed', 'deflected', 'lost')
               WHEN 'abandoned' THEN outcome = 'abandoned'
               ELSE outcome IS NULL
           END)
);

-- At most one open (lobby or active) game per channel, whatever the code does.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');

-- Seats in join order. In a lobby a leaving player's row is deleted; once the game
-- has started rows stay (the replay needs the starting order) and left_at is set.
CREATE TABLE players (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER NOT NULL,
    joined_at REAL    NOT NULL,
    left_at   REAL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

-- Every accepted action and the events it caused; version n is the action that
-- took the game from version n-1 to n. actor is NULL for the bot itself.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL CHECK (version > 0),
    at      REAL    NOT NULL,
    actor   INTEGER,
    action  TEXT    NOT NULL,
    events  TEXT    NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- A log row belongs to the game version written in the same transaction.
CREATE TRIGGER actions_match_game_version BEFORE INSERT ON actions
WHEN NEW.version IS NOT (SELECT version FROM games WHERE id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'action log version does not match the game version');
END;

-- Small key/value facts about the bot itself, such as its last heartbeat.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value ANY
) WITHOUT ROWID;
