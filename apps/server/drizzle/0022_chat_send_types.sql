ALTER TABLE "chat_conversations" ADD COLUMN "send_types" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "chat_conversations" c SET "send_types" = coalesce((
  SELECT bit_or(CASE m.send_type WHEN 'user' THEN 1 WHEN 'ai_full' THEN 2 WHEN 'ai_assisted' THEN 4 WHEN 'human' THEN 8
    WHEN 'ai_manual' THEN 16 WHEN 'fixed' THEN 32 ELSE 0 END)
  FROM "chat_messages" m WHERE m.conversation_id = c.id), 0);
