-- Segment vectors, only where pgvector exists (see 0001). One row per segment for the base's
-- current embedding model. The column has no fixed dimension because each base picks its own
-- model; the retrieval service creates one HNSW index per dimension on first use:
--   CREATE INDEX knowledge_vectors_hnsw_<dims> ON knowledge_vectors
--     USING hnsw ((embedding::vector(<dims>)) vector_cosine_ops) WHERE dims = <dims>;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    CREATE TABLE IF NOT EXISTS knowledge_vectors (
      segment_id uuid PRIMARY KEY REFERENCES knowledge_segments(id) ON DELETE CASCADE,
      knowledge_id uuid NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      model_key_id uuid NOT NULL,
      dims integer NOT NULL,
      embedding vector NOT NULL
    );
    CREATE INDEX IF NOT EXISTS knowledge_vectors_base_idx ON knowledge_vectors (knowledge_id);
  END IF;
END $$;
