-- A customer's last activity is now their own newest message, raised by the message store in the
-- same statement that creates or renames customers (before it touches conversations, so every
-- writer locks customers, then conversations). The triggers on chat_conversations raised it from
-- every message, our replies included, and locked customers after conversations.
DROP TRIGGER IF EXISTS chat_conversations_activity_insert ON chat_conversations;--> statement-breakpoint
DROP TRIGGER IF EXISTS chat_conversations_activity_update ON chat_conversations;--> statement-breakpoint
DROP FUNCTION IF EXISTS chat_customers_raise_activity();--> statement-breakpoint
UPDATE chat_customers cu SET last_active_at = a.at
FROM (
  SELECT cu2.id, (
    SELECT max(m.sent_at) FROM chat_conversations c
    JOIN chat_messages m ON m.conversation_id = c.id AND m.send_type = 'user'
    WHERE c.customer_id = cu2.id
  ) AS at
  FROM chat_customers cu2
) a
WHERE cu.id = a.id AND cu.last_active_at IS DISTINCT FROM a.at;
--> statement-breakpoint
-- The behaviour catch-up job derives events again from the messages after its watermark (what a
-- crash between storing and deriving missed). Everything stored so far was derived as it arrived:
-- it starts at the newest message, not at the first.
INSERT INTO report_watermarks (name, message_id)
SELECT 'behaviour', coalesce(max(id), 0) FROM chat_messages
ON CONFLICT (name) DO NOTHING;
