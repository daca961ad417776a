-- Correspondence clocks (a projection of the events): the time control and each seat's time as
-- JSON, and the deadline of the seat to act, indexed so that the scheduler finds due games
-- without looking at idle ones.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN deadline_at BIGINT;
CREATE INDEX games_deadline ON games (deadline_at);
