-- 0019: each person's win streaks, and their firsts (first win, first win at hard, ...).
-- Why: a profile shows a person's current and best win streaks and the firsts they earned,
-- and the final board the firsts earned with its game, read in a few rows however many
-- games were played: both are kept in the transaction that ends a game, and filled here
-- from the games already stored. Keep in step with 0016_firsts.postgresql.sql (the same
-- schema; the logs' JSON read in its words).

-- A person's wins in a row on one server, all-human teams' and, apart, with crewmates': the
-- latest run (0 once a game with a result was not a win for them) and the longest.
ALTER TABLE player_totals ADD COLUMN streak INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0);
ALTER TABLE player_totals ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0
    CHECK (best_streak >= 0);
ALTER TABLE crew_totals ADD COLUMN streak INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0);
ALTER TABLE crew_totals ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0
    CHECK (best_streak >= 0);

-- The firsts a person earned on one server (every DM and group DM together, as their
-- profile), each once, with the game that earned it (bot.store.records.FIRSTS).
CREATE TABLE player_firsts (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    kind     TEXT    NOT NULL CHECK (kind IN ('win', 'hard', 'people', 'advanced',
                                              'on_target', 'fast')),
    game_id  INTEGER NOT NULL REFERENCES results (game_id),
    PRIMARY KEY (guild_id, user_id, kind)
) WITHOUT ROWID;

-- The final board reads the firsts its game earned.
CREATE INDEX player_firsts_by_game ON player_firsts (game_id);

-- The streaks of the games stored before this migration: each person's games with a
-- result in the order they ended, cut into runs by the games that were not wins for them
-- (run k follows their k-th such game); the latest run is the current streak.
CREATE TEMPORARY TABLE streaks_before AS
WITH played AS (
    SELECT r.guild_id, p.user_id, r.game_id, r.ended_at,
           CASE WHEN r.crewmates > 0 THEN 1 ELSE 0 END AS crew,
           CASE WHEN p.left_at IS NULL AND r.outcome IN ('destroyed', 'deflected')
                THEN 1 ELSE 0 END AS won
    FROM results AS r
    JOIN players AS p ON p.game_id = r.game_id
    WHERE p.user_id > 0 AND r.outcome <> 'abandoned'
),
cut AS (
    SELECT *, SUM(1 - won) OVER (
        PARTITION BY guild_id, user_id, crew ORDER BY ended_at, game_id ROWS UNBOUNDED PRECEDING
    ) AS run
    FROM played
),
runs AS (
    SELECT guild_id, user_id, crew, run, SUM(won) AS wins,
           MAX(run) OVER (PARTITION BY guild_id, user_id, crew) AS latest
    FROM cut
    GROUP BY guild_id, user_id, crew, run
),
streaks AS (
    SELECT guild_id, user_id, crew, MAX(CASE WHEN run = latest THEN wins END) AS streak,
           MAX(wins) AS best_streak
    FROM runs
    GROUP BY guild_id, user_id, crew
)
SELECT * FROM streaks;

UPDATE player_totals SET streak = s.streak, best_streak = s.best_streak
FROM streaks_before AS s
WHERE s.guild_id = player_totals.guild_id AND s.user_id = player_totals.user_id AND s.crew = 0;

UPDATE crew_totals SET streak = s.streak, best_streak = s.best_streak
FROM streaks_before AS s
WHERE s.guild_id = crew_totals.guild_id AND s.user_id = crew_totals.user_id AND s.crew = 1;

DROP TABLE streaks_before;

-- The firsts of the games stored before this migration: for each person and first, the
-- earliest game they won that earns it. A game is won with every launch on target when
-- none of its launches ended short of Apophis (failed its fuel check or its launch roll,
-- or missed).
WITH won AS (
    SELECT r.guild_id, p.user_id, r.game_id, r.ended_at, r.rules, r.difficulty, r.crewmates,
           r.duration_seconds, r.length_seconds
    FROM results AS r
    JOIN players AS p ON p.game_id = r.game_id
    WHERE p.user_id > 0 AND p.left_at IS NULL AND r.outcome IN ('destroyed', 'deflected')
),
short AS (
    SELECT DISTINCT a.game_id
    FROM actions AS a
    JOIN json_each(a.events) AS e
    WHERE a.game_id IN (SELECT game_id FROM won)
      AND json_extract(e.value, '$.kind') = 'launch_ended' AND NOT json_extract(e.value, '$.hit')
),
earned AS (
    SELECT guild_id, user_id, 'win' AS kind, game_id, ended_at FROM won
    UNION ALL
    SELECT guild_id, user_id, 'hard', game_id, ended_at FROM won WHERE difficulty = 'hard'
    UNION ALL
    SELECT guild_id, user_id, 'people', game_id, ended_at FROM won WHERE crewmates = 0
    UNION ALL
    SELECT guild_id, user_id, 'advanced', game_id, ended_at FROM won WHERE rules = 'advanced'
    UNION ALL
    SELECT guild_id, user_id, 'on_target', game_id, ended_at FROM won
    WHERE game_id NOT IN (SELECT game_id FROM short)
    UNION ALL
    SELECT guild_id, user_id, 'fast', game_id, ended_at FROM won
    WHERE duration_seconds < length_seconds / 2.0
),
placed AS (
    SELECT *, ROW_NUMBER() OVER (
        PARTITION BY guild_id, user_id, kind ORDER BY ended_at, game_id
    ) AS place
    FROM earned
)
INSERT INTO player_firsts (guild_id, user_id, kind, game_id)
SELECT guild_id, user_id, kind, game_id FROM placed WHERE place = 1;
