-- The keyword index terms of a text, as apps/server/src/modules/chat-history/search-terms.ts makes
-- them for messages (docs/user-profiles.md, "Keyword search"): NFKC, lower case, runs of letters
-- and digits; Chinese, Japanese and Korean runs as their characters and overlapping pairs, other
-- runs as words of up to 60 characters. Computed here, in stored generated columns, so every
-- writer of a customer's name or value keeps its terms current and existing rows are indexed by
-- this migration itself.
CREATE OR REPLACE FUNCTION profile_search_terms(input text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
  terms text[] := '{}';
  run text;
  piece text;
  n int;
BEGIN
  FOR run IN SELECT m[1] FROM regexp_matches(lower(normalize(coalesce(input, ''), NFKC)), '([[:alnum:]]+)', 'g') AS m LOOP
    FOR piece IN SELECT m[1] FROM regexp_matches(run,
      '([\u1100-\u11ff\u3005\u3007\u3021-\u3029\u3038-\u303b\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fd-\u30ff\u3131-\u318e\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]+|[^\u1100-\u11ff\u3005\u3007\u3021-\u3029\u3038-\u303b\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fd-\u30ff\u3131-\u318e\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]+)', 'g') AS m LOOP
      n := char_length(piece);
      IF piece ~ '^[\u1100-\u11ff\u3005\u3007\u3021-\u3029\u3038-\u303b\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fd-\u30ff\u3131-\u318e\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]' THEN
        FOR i IN 1..n LOOP
          terms := terms || substr(piece, i, 1);
          IF i < n THEN terms := terms || substr(piece, i, 2); END IF;
        END LOOP;
      ELSIF n <= 60 THEN
        terms := terms || piece;
      END IF;
    END LOOP;
  END LOOP;
  RETURN array_to_tsvector(terms);
END
$fn$;
--> statement-breakpoint
ALTER TABLE "chat_customers" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (profile_search_terms(name)) STORED;--> statement-breakpoint
ALTER TABLE "profile_values" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (profile_search_terms(value)) STORED;--> statement-breakpoint
CREATE INDEX "chat_customers_search_idx" ON "chat_customers" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "profile_values_search_idx" ON "profile_values" USING gin ("search_vector");