-- 0013: how the bot reaches a game's players.
-- Why: a game can be played where the bot is not a member (a user-installed app in a server
-- that never invited it, a DM or a group DM): there every message goes through interactions,
-- since no channel route works. 'channel': the bot posts in the channel; 'interactions':
-- through interaction tokens only. A game played again keeps its lobby's.

ALTER TABLE games ADD COLUMN reach TEXT NOT NULL DEFAULT 'channel' CHECK (reach IN ('channel', 'interactions'));
