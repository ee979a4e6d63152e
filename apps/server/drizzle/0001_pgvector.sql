-- pgvector powers knowledge retrieval; enabling it here makes a missing extension fail at start, not later.
CREATE EXTENSION IF NOT EXISTS vector;
