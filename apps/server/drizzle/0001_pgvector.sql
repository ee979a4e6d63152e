-- pgvector powers semantic retrieval. Embedded PGlite always has it; on a server without the
-- extension Athena still runs (full-text retrieval needs no vectors), so warn instead of failing.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS vector;
EXCEPTION WHEN OTHERS THEN
  RAISE WARNING 'pgvector is not available (%); semantic retrieval will be disabled', SQLERRM;
END
$$;
