-- 0009: each person's tallies of ended games, and their totals per server.
-- Why: /apophis profile and /apophis leaderboard read a person's games, wins, launches, hits
-- and damage in a few rows, however many games they played: the tallies are added to in the
-- transaction that ends a game, and filled here from the logs of the games already stored.
-- Keep in step with 0009_records.postgresql.sql (the same schema; JSON read in its words).

-- A person's ended games of one rule set and difficulty on one server, with or without
-- crewmates (crewmates themselves have none): games with a result, those won (seated to
-- the end), those abandoned, the launches they started in all of them, how many hit
-- Apophis and the damage they did (a launch is its starter's, whichever action, a reroll
-- or a skip, finished it), and their fastest win. Added to as each game ends.
CREATE TABLE player_tallies (
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    rules           TEXT    NOT NULL,
    difficulty      TEXT    NOT NULL,
    with_crewmates  INTEGER NOT NULL CHECK (with_crewmates IN (0, 1)),
    games           INTEGER NOT NULL CHECK (games >= 0),
    wins            INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    abandoned       INTEGER NOT NULL CHECK (abandoned >= 0),
    launches        INTEGER NOT NULL CHECK (launches >= 0),
    hits            INTEGER NOT NULL CHECK (hits >= 0),
    damage          INTEGER NOT NULL CHECK (damage >= 0),
    fastest_game_id INTEGER REFERENCES results (game_id),
    fastest_seconds REAL,
    CHECK ((fastest_game_id IS NULL) = (wins = 0) AND (fastest_seconds IS NULL) = (wins = 0)),
    PRIMARY KEY (guild_id, user_id, rules, difficulty, with_crewmates)
) WITHOUT ROWID;

-- A person's all-human games with a result on one server, and those they won: what the
-- leaderboard ranks, read without adding up their tallies.
CREATE TABLE player_totals (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    games    INTEGER NOT NULL CHECK (games > 0),
    wins     INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- The leaderboard reads a server's people with enough games, and nothing else.
CREATE INDEX player_totals_by_games ON player_totals (guild_id, games, wins, user_id);

-- A server's fastest all-human wins of one difficulty, read in order.
CREATE INDEX results_fastest_wins ON results (guild_id, difficulty, duration_seconds, ended_at)
    WHERE outcome IN ('destroyed', 'deflected') AND crewmates = 0;

-- The games stored before this migration, from their logs: the events of a launch (in log
-- order) belong to the launch started last, and so to the player who started it.
WITH launch_events AS (
    SELECT a.game_id, a.version, e.key AS place,
           json_extract(e.value, '$.kind') AS kind,
           json_extract(e.value, '$.player') AS player,
           json_extract(e.value, '$.hit') AS hit
    FROM results AS r
    JOIN actions AS a ON a.game_id = r.game_id
    JOIN json_each(a.events) AS e
    WHERE json_extract(e.value, '$.kind') IN ('launch_started', 'launch_ended', 'apophis_damaged')
),
numbered AS (
    SELECT *, SUM(kind = 'launch_started') OVER (
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
           SUM(kind = 'launch_started') AS launches,
           SUM(kind = 'launch_ended' AND hit) AS hits,
           SUM(kind = 'apophis_damaged') AS damage
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
    LEFT JOIN figures AS f ON f.game_id = p.game_id AND f.launcher = p.user_id
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
