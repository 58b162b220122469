-- 0017: web sessions ended before their time (a logout), shared by every process.
-- Why: a logout on one process must hold on all of them, and after a restart.

CREATE TABLE ended_sessions (
    signature TEXT PRIMARY KEY,
    expires REAL NOT NULL,
    ended_at REAL NOT NULL
);
CREATE INDEX ended_sessions_by_time ON ended_sessions (ended_at);
