-- Accuracy is measured against random play from now on (issue 66: 0 is what choosing at random
-- would give, 100 the best choice every time; it was Lichess's curve over winning chances, which
-- told a player who clicked at random they played at 94%). Every done review is done again by
-- the review worker, on the new scale, from the game's record (nothing is lost: a review is
-- computed from the record, seeded by the game's id); the profiles' averages wait for them.
DELETE FROM review_accuracies;
UPDATE game_reviews
SET done_at = NULL, review = NULL, failure = NULL, claimed_until = 0, attempts = 0
WHERE done_at IS NOT NULL;
