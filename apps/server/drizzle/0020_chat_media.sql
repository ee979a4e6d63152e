ALTER TABLE "chat_messages" ADD COLUMN "media_state" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "media_key" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "media_error" text;--> statement-breakpoint
CREATE INDEX "chat_messages_media_pending_idx" ON "chat_messages" USING btree ("created_at") WHERE media_state = 'pending';