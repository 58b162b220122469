-- 0015: each person's totals of games with AI crewmates per server, and the fastest such wins.
-- Why: /apophis leaderboard ranks games with crewmates apart from all-human teams' (most small
-- groups play with one), read in a few rows however many games were played: the totals are
-- added to in the transaction that ends a game, and filled here from the tallies.

-- A person's games with crewmates with a result on one server, and those they won.
CREATE TABLE crew_totals (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    games    INTEGER NOT NULL CHECK (games > 0),
    wins     INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX crew_totals_by_games ON crew_totals (guild_id, games, wins, user_id);

-- A server's fastest wins with crewmates of one difficulty, read in order.
CREATE INDEX results_fastest_crew_wins ON results (guild_id, difficulty, duration_seconds, ended_at)
    WHERE outcome IN ('destroyed', 'deflected') AND crewmates > 0;

INSERT INTO crew_totals (guild_id, user_id, games, wins)
SELECT guild_id, user_id, SUM(games), SUM(wins)
FROM player_tallies
WHERE with_crewmates = 1
GROUP BY guild_id, user_id
HAVING SUM(games) > 0;
