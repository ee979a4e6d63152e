DROP INDEX "chat_conversations_recent_idx";--> statement-breakpoint
DROP INDEX "chat_conversations_customer_idx";--> statement-breakpoint
CREATE INDEX "chat_messages_time_idx" ON "chat_messages" USING btree ("space_id","scene_id","sent_at");--> statement-breakpoint
CREATE INDEX "chat_conversations_recent_idx" ON "chat_conversations" USING btree ("space_id","scene_id","last_message_at","id");--> statement-breakpoint
CREATE INDEX "chat_conversations_customer_idx" ON "chat_conversations" USING btree ("customer_id","last_message_at");