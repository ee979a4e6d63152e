ALTER TABLE "chat_customers" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "chat_customers_active_idx" ON "chat_customers" USING btree ("space_id","scene_id","last_active_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- A customer's last activity: the newest last_message_at of the conversations they are the
-- customer of. It only grows (a conversation's last message only gets newer, and a conversation
-- keeps its customer once set), so each statement that writes conversations raises it for their
-- customers, once per customer, in customer order (two batches lock customers in the same order).
CREATE OR REPLACE FUNCTION chat_customers_raise_activity() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE chat_customers cu SET last_active_at = a.at
  FROM (
    SELECT customer_id, max(last_message_at) AS at FROM changed
    WHERE customer_id IS NOT NULL GROUP BY customer_id ORDER BY customer_id
  ) a
  WHERE cu.id = a.customer_id AND (cu.last_active_at IS NULL OR cu.last_active_at < a.at);
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER chat_conversations_activity_insert AFTER INSERT ON chat_conversations
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_raise_activity();
--> statement-breakpoint
CREATE TRIGGER chat_conversations_activity_update AFTER UPDATE ON chat_conversations
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION chat_customers_raise_activity();
--> statement-breakpoint
UPDATE chat_customers cu SET last_active_at = a.at
FROM (
  SELECT customer_id, max(last_message_at) AS at FROM chat_conversations
  WHERE customer_id IS NOT NULL GROUP BY customer_id
) a
WHERE cu.id = a.customer_id;
--> statement-breakpoint
-- A field's values are not spread like all values together ("VIP" is 3 % of one field, 0.5 % of
-- all values): statistics of the pair, so the planner's estimate of an equals condition, which
-- picks how the customer list is read and is the total beyond 5 000, comes out right.
CREATE STATISTICS IF NOT EXISTS profile_values_field_value_stats (mcv) ON field_id, left(value, 100) FROM profile_values;
