ALTER TABLE "chat_customers" ADD COLUMN "values_document" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_customers" ADD COLUMN "search_document" "tsvector" GENERATED ALWAYS AS (profile_search_terms(name) || values_document) STORED;--> statement-breakpoint
ALTER TABLE "chat_customers" ADD COLUMN "satisfaction_score" smallint;--> statement-breakpoint

-- A customer's values as one search document (docs/user-profiles.md, "Reading at scale"): every
-- value's keyword terms (profile_values.search_vector, migration 0033), and for each value shorter
-- than 100 characters an equality token, '=' and the md5 of "<field id>=<value>" (no keyword term
-- has a '='). With the name's terms in the generated column search_document, a keyword with
-- "city is 上海" is one GIN lookup, and "level is VIP" a test of the customer's own row.
CREATE OR REPLACE FUNCTION profile_values_document(customer bigint) RETURNS tsvector
LANGUAGE sql STABLE AS $fn$
  SELECT array_to_tsvector(coalesce(array_agg(DISTINCT term), '{}'))
  FROM profile_values v,
    unnest(tsvector_to_array(v.search_vector) || CASE WHEN char_length(v.value) < 100
      THEN array['=' || md5(v.field_id::text || '=' || v.value)] ELSE '{}'::text[] END) AS term
  WHERE v.customer_id = customer
$fn$;
--> statement-breakpoint
-- Kept by statement-level triggers on profile_values (every writer: a value set, changed, cleared
-- or undone, a field deleted with its values), recomputed once per customer a statement touched.
CREATE OR REPLACE FUNCTION chat_customers_values_document() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE chat_customers cu SET values_document = d.document
  FROM (
    SELECT t.customer_id, profile_values_document(t.customer_id) AS document
    FROM (SELECT DISTINCT customer_id FROM changed) t ORDER BY t.customer_id
  ) d
  WHERE cu.id = d.customer_id AND cu.values_document IS DISTINCT FROM d.document;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER profile_values_document_insert AFTER INSERT ON profile_values
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_values_document();
--> statement-breakpoint
CREATE TRIGGER profile_values_document_update AFTER UPDATE ON profile_values
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_values_document();
--> statement-breakpoint
CREATE TRIGGER profile_values_document_delete AFTER DELETE ON profile_values
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_values_document();
--> statement-breakpoint
UPDATE chat_customers cu SET values_document = profile_values_document(cu.id)
WHERE EXISTS (SELECT 1 FROM profile_values v WHERE v.customer_id = cu.id);
--> statement-breakpoint
-- A customer's latest satisfaction score: the score of their latest rated survey (rated_at, then
-- id, as the search read it before), or null when none is rated. Kept by statement-level triggers
-- on satisfaction_surveys (every writer: a rating landing, a survey written by a test or an
-- import, a conversation deleted with its surveys), recomputed for the customers a statement
-- touched, in customer order (two statements lock customers in the same order). The customer
-- search reads it through chat_customers_satisfaction_idx.
CREATE OR REPLACE FUNCTION chat_customers_latest_satisfaction() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE chat_customers cu SET satisfaction_score = latest.score
  FROM (
    SELECT t.customer_id, (
      SELECT s.score FROM satisfaction_surveys s
      WHERE s.customer_id = t.customer_id AND s.state = 'rated' AND s.score IS NOT NULL
      ORDER BY s.rated_at DESC NULLS LAST, s.id DESC LIMIT 1) AS score
    FROM (SELECT DISTINCT customer_id FROM changed WHERE customer_id IS NOT NULL) t
    ORDER BY t.customer_id
  ) latest
  WHERE cu.id = latest.customer_id AND cu.satisfaction_score IS DISTINCT FROM latest.score;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER satisfaction_surveys_latest_insert AFTER INSERT ON satisfaction_surveys
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_latest_satisfaction();
--> statement-breakpoint
CREATE TRIGGER satisfaction_surveys_latest_update AFTER UPDATE ON satisfaction_surveys
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_latest_satisfaction();
--> statement-breakpoint
CREATE TRIGGER satisfaction_surveys_latest_delete AFTER DELETE ON satisfaction_surveys
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_latest_satisfaction();
--> statement-breakpoint
UPDATE chat_customers cu SET satisfaction_score = latest.score
FROM (
  SELECT DISTINCT ON (customer_id) customer_id, score FROM satisfaction_surveys
  WHERE state = 'rated' AND score IS NOT NULL AND customer_id IS NOT NULL
  ORDER BY customer_id, rated_at DESC NULLS LAST, id DESC
) latest
WHERE cu.id = latest.customer_id;
--> statement-breakpoint
CREATE INDEX "chat_customers_document_idx" ON "chat_customers" USING gin ("search_document");--> statement-breakpoint
CREATE INDEX "chat_customers_satisfaction_idx" ON "chat_customers" USING btree ("space_id","scene_id","satisfaction_score","last_active_at" DESC NULLS LAST,"id" DESC NULLS LAST);