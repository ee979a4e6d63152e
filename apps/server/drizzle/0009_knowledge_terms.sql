CREATE TABLE "knowledge_segment_hits" (
	"segment_id" uuid PRIMARY KEY NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_terms" (
	"knowledge_id" uuid NOT NULL,
	"term" text NOT NULL,
	"segments" integer NOT NULL,
	CONSTRAINT "knowledge_terms_knowledge_id_term_pk" PRIMARY KEY("knowledge_id","term")
);
--> statement-breakpoint
ALTER TABLE "knowledge_segment_hits" ADD CONSTRAINT "knowledge_segment_hits_segment_id_knowledge_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."knowledge_segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_terms" ADD CONSTRAINT "knowledge_terms_knowledge_id_knowledge_bases_id_fk" FOREIGN KEY ("knowledge_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "knowledge_segment_hits" ("segment_id", "hits")
	SELECT "id", "hit_count" FROM "knowledge_segments" WHERE "hit_count" > 0;--> statement-breakpoint
ALTER TABLE "knowledge_segments" DROP COLUMN "hit_count";--> statement-breakpoint
-- Document frequencies (knowledge-schema.ts knowledgeTerms): per statement, from the rows it
-- wrote, each term of a segment once (tsvector_to_array lists distinct lexemes) plus '' for the
-- segment itself. Terms with a digit (ids, numbers, dates) are left out: mostly each occurs in one
-- segment, so they were most of the rows to write; retrieval counts them at query time instead. Decrements are plain UPDATEs, so a base deleted by cascade in the same statement
-- is no foreign-key error; rows sorted so concurrent writers lock terms in one order.
CREATE FUNCTION knowledge_terms_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- Each branch names only the transition tables its trigger has (plpgsql plans a statement when it runs).
	IF TG_OP = 'INSERT' THEN
		INSERT INTO knowledge_terms (knowledge_id, term, segments)
		SELECT n.knowledge_id, term, count(*)::int
		FROM new_rows n, unnest(array_append(tsvector_to_array(n.search_vector), '')) AS term
		WHERE term !~ '[0-9]'
		GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT (knowledge_id, term) DO UPDATE SET segments = knowledge_terms.segments + excluded.segments;
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE knowledge_terms t SET segments = t.segments - d.n
		FROM (
			SELECT o.knowledge_id, term, count(*)::int AS n
			FROM old_rows o, unnest(array_append(tsvector_to_array(o.search_vector), '')) AS term
			WHERE term !~ '[0-9]'
			GROUP BY 1, 2 ORDER BY 1, 2
		) d
		WHERE t.knowledge_id = d.knowledge_id AND t.term = d.term;
	ELSE
		-- Only rows whose words changed (an edit), not a toggle of enabled.
		UPDATE knowledge_terms t SET segments = t.segments - d.n
		FROM (
			SELECT o.knowledge_id, term, count(*)::int AS n
			FROM old_rows o JOIN new_rows n ON n.id = o.id, unnest(array_append(tsvector_to_array(o.search_vector), '')) AS term
			WHERE n.search_vector IS DISTINCT FROM o.search_vector AND term !~ '[0-9]'
			GROUP BY 1, 2 ORDER BY 1, 2
		) d
		WHERE t.knowledge_id = d.knowledge_id AND t.term = d.term;
		INSERT INTO knowledge_terms (knowledge_id, term, segments)
		SELECT n.knowledge_id, term, count(*)::int
		FROM new_rows n JOIN old_rows o ON o.id = n.id, unnest(array_append(tsvector_to_array(n.search_vector), '')) AS term
		WHERE n.search_vector IS DISTINCT FROM o.search_vector AND term !~ '[0-9]'
		GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT (knowledge_id, term) DO UPDATE SET segments = knowledge_terms.segments + excluded.segments;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER knowledge_terms_insert AFTER INSERT ON knowledge_segments
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION knowledge_terms_count();--> statement-breakpoint
CREATE TRIGGER knowledge_terms_update AFTER UPDATE ON knowledge_segments
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION knowledge_terms_count();--> statement-breakpoint
CREATE TRIGGER knowledge_terms_delete AFTER DELETE ON knowledge_segments
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION knowledge_terms_count();--> statement-breakpoint
INSERT INTO knowledge_terms (knowledge_id, term, segments)
	SELECT knowledge_id, term, count(*)::int
	FROM knowledge_segments, unnest(array_append(tsvector_to_array(search_vector), '')) AS term
	WHERE term !~ '[0-9]'
	GROUP BY 1, 2;