-- 0018: each person's totals read by person, whatever the server.
-- Why: a lobby offers an easier game to a team none of whose people has won a game yet, and
-- a person's first game shows them a suggested first move: both ask whether someone has won,
-- or finished, a game on any server, which the totals' keys (server first) cannot answer
-- without reading every server's.

CREATE INDEX player_totals_by_user ON player_totals (user_id, wins);
CREATE INDEX crew_totals_by_user ON crew_totals (user_id, wins);
