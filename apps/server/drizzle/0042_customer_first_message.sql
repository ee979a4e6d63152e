ALTER TABLE "chat_customers" ADD COLUMN "first_message_at" timestamp with time zone;--> statement-breakpoint
-- When each customer was first seen: their conversations' earliest message (one row per
-- conversation, not a scan of the messages).
UPDATE chat_customers cu SET first_message_at = f.at
FROM (
  SELECT customer_id, min(first_message_at) AS at FROM chat_conversations
  WHERE customer_id IS NOT NULL GROUP BY customer_id
) f
WHERE cu.id = f.customer_id;
