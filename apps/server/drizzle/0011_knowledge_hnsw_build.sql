-- HNSW indexes of knowledge_vectors are built with ef_construction 200 instead of pgvector's 64
-- (vectors.ts HNSW_EF_CONSTRUCTION; docs/knowledge.md "Where vectors live"): on 100 000 real
-- model vectors it lifts recall@10 at the same ef_search, for twice the time to build a whole index.
-- Indexes made before this are rebuilt once with the new setting. Where pgvector is absent there
-- are none.
-- The build keeps its graph in memory when it fits in maintenance_work_mem; PostgreSQL's 64 MB
-- default is far too small for 100 000 vectors, so the rebuild may use up to 1 GB (local to this
-- migration's transaction).
DO $$
DECLARE
  index_name text;
BEGIN
  FOR index_name IN
    SELECT c.relname FROM pg_class c JOIN pg_am a ON a.oid = c.relam
    WHERE a.amname = 'hnsw' AND c.relname LIKE 'knowledge_vectors_hnsw_%'
  LOOP
    PERFORM set_config('maintenance_work_mem', '1GB', true);
    EXECUTE format('ALTER INDEX %I SET (ef_construction = 200)', index_name);
    EXECUTE format('REINDEX INDEX %I', index_name);
  END LOOP;
END $$;
