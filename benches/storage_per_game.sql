-- Storage per finished game on PostgreSQL (docs/performance.md, "Storage").
-- Run on a database where `keltis load` has played (server stopped):
--   psql "$DATABASE_URL" -f benches/storage_per_game.sql
-- It DELETES the games not over (still being played, or never started), with everything that refers to them, then compacts
-- every table and divides the database's tables' total size by the finished games. Use a
-- database made for the measurement, never one players use.
BEGIN;
CREATE TEMP TABLE unfinished AS SELECT id FROM games WHERE status <> 'over';
DO $$
DECLARE t text;
BEGIN
  -- Every table that names a game, then the games themselves.
  FOR t IN SELECT c.table_name FROM information_schema.columns c
           JOIN information_schema.tables tb USING (table_schema, table_name)
           WHERE c.table_schema = 'public' AND c.column_name = 'game_id'
             AND tb.table_type = 'BASE TABLE' LOOP
    EXECUTE format('DELETE FROM %I WHERE game_id IN (SELECT id FROM unfinished)', t);
  END LOOP;
  DELETE FROM games WHERE id IN (SELECT id FROM unfinished);
END $$;
COMMIT;
VACUUM FULL;
SELECT (SELECT count(*) FROM games) AS finished_games,
       pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS all_tables,
       round(sum(pg_total_relation_size(c.oid)) / 1024.0 / (SELECT count(*) FROM games), 1)
         AS kb_per_finished_game
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r';
