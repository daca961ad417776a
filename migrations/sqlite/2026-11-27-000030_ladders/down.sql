DROP TABLE ladder_challenges;
DROP TABLE ladder_rungs;
