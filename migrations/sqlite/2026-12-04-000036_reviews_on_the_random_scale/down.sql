-- Nothing to undo: the reviews done again stay done.
SELECT 1;
