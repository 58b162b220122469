-- 0010: a thread per game.
-- Why: a server may play each game in a thread of its own (/apophis config threads, off by
-- default), opened from the lobby message as the game starts. The thread is then the game's
-- channel (channel_id, under the one-open-game-per-channel index: the lobby's channel is
-- free for the next lobby), and the lobby's channel (parent_channel_id) is told the result
-- when the game ends, after a restart too. NULL: the game plays in its own channel.

ALTER TABLE guild_settings
    ADD COLUMN threads INTEGER NOT NULL DEFAULT 0 CHECK (threads IN (0, 1));

ALTER TABLE games ADD COLUMN parent_channel_id INTEGER;
