DROP TABLE review_accuracies;
DROP TABLE game_reviews;
