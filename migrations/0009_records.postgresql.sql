-- 0009: each person's tallies of ended games, and their totals per server (PostgreSQL).
-- Why: the same schema as 0009_records.sql, in PostgreSQL's words: 64-bit types, and the
-- stored logs read as jsonb to fill the tallies of games ended before it. Keep the two files
-- in step: every table, column, check and index of one is in the other.

CREATE TABLE player_tallies (
    guild_id        BIGINT NOT NULL,
    user_id         BIGINT NOT NULL,
    rules           TEXT    NOT NULL,
    difficulty      TEXT    NOT NULL,
    with_crewmates  BIGINT NOT NULL CHECK (with_crewmates IN (0, 1)),
    games           BIGINT NOT NULL CHECK (games >= 0),
    wins            BIGINT NOT NULL CHECK (wins >= 0 AND wins <= games),
    abandoned       BIGINT NOT NULL CHECK (abandoned >= 0),
    launches        BIGINT NOT NULL CHECK (launches >= 0),
    hits            BIGINT NOT NULL CHECK (hits >= 0),
    damage          BIGINT NOT NULL CHECK (damage >= 0),
    fastest_game_id BIGINT REFERENCES results (game_id),
    fastest_seconds DOUBLE PRECISION,
    CHECK ((fastest_game_id IS NULL) = (wins = 0) AND (fastest_seconds IS NULL) = (wins = 0)),
    PRIMARY KEY (guild_id, user_id, rules, difficulty, with_crewmates)
);

CREATE TABLE player_totals (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    games    BIGINT NOT NULL CHECK (games > 0),
    wins     BIGINT NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX player_totals_by_games ON player_totals (guild_id, games, wins, user_id);

CREATE INDEX results_fastest_wins ON results (guild_id, difficulty, duration_seconds, ended_at)
    WHERE outcome IN ('destroyed', 'deflected') AND crewmates = 0;

-- Players are compared as JSON gives them (text): a log never makes the migration fail.
WITH launch_events AS (
    SELECT a.game_id, a.version, e.place,
           e.event ->> 'kind' AS kind,
           e.event ->> 'player' AS player,
           e.event ->> 'hit' = 'true' AS hit
    FROM results AS r
    JOIN actions AS a ON a.game_id = r.game_id
    CROSS JOIN LATERAL jsonb_array_elements(a.events::jsonb) WITH ORDINALITY AS e (event, place)
    WHERE e.event ->> 'kind' IN ('launch_started', 'launch_ended', 'apophis_damaged')
),
numbered AS (
    SELECT *, COUNT(*) FILTER (WHERE kind = 'launch_started') OVER (
        PARTITION BY game_id ORDER BY version, place ROWS UNBOUNDED PRECEDING
    ) AS launch
    FROM launch_events
),
owned AS (
    SELECT *, FIRST_VALUE(player) OVER (
        PARTITION BY game_id, launch ORDER BY version, place
    ) AS launcher
    FROM numbered
    WHERE launch > 0
),
figures AS (
    SELECT game_id, launcher,
           COUNT(*) FILTER (WHERE kind = 'launch_started') AS launches,
           COUNT(*) FILTER (WHERE kind = 'launch_ended' AND hit) AS hits,
           COUNT(*) FILTER (WHERE kind = 'apophis_damaged') AS damage
    FROM owned
    GROUP BY game_id, launcher
),
parts AS (
    SELECT r.guild_id, p.user_id, r.game_id, r.rules, r.difficulty, r.duration_seconds,
           r.ended_at,
           CASE WHEN r.crewmates > 0 THEN 1 ELSE 0 END AS crew,
           CASE WHEN r.outcome <> 'abandoned' THEN 1 ELSE 0 END AS played,
           CASE WHEN p.left_at IS NULL AND r.outcome IN ('destroyed', 'deflected')
                THEN 1 ELSE 0 END AS won,
           COALESCE(f.launches, 0) AS launches, COALESCE(f.hits, 0) AS hits,
           COALESCE(f.damage, 0) AS damage
    FROM results AS r
    JOIN players AS p ON p.game_id = r.game_id
    LEFT JOIN figures AS f ON f.game_id = p.game_id AND f.launcher = p.user_id::text
    WHERE p.user_id > 0
),
placed AS (
    SELECT *, ROW_NUMBER() OVER (
        PARTITION BY guild_id, user_id, rules, difficulty, crew, won
        ORDER BY duration_seconds, ended_at
    ) AS place
    FROM parts
)
INSERT INTO player_tallies (guild_id, user_id, rules, difficulty, with_crewmates, games, wins,
                            abandoned, launches, hits, damage, fastest_game_id, fastest_seconds)
SELECT guild_id, user_id, rules, difficulty, crew, SUM(played), SUM(won), SUM(1 - played),
       SUM(launches), SUM(hits), SUM(damage),
       MAX(CASE WHEN won = 1 AND place = 1 THEN game_id END),
       MAX(CASE WHEN won = 1 AND place = 1 THEN duration_seconds END)
FROM placed
GROUP BY guild_id, user_id, rules, difficulty, crew;

INSERT INTO player_totals (guild_id, user_id, games, wins)
SELECT guild_id, user_id, SUM(games), SUM(wins)
FROM player_tallies
WHERE with_crewmates = 0
GROUP BY guild_id, user_id
HAVING SUM(games) > 0;
