ALTER TABLE "media_items" ADD COLUMN "preview" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_items" ADD COLUMN "preview_reason" text;--> statement-breakpoint
ALTER TABLE "media_items" ADD COLUMN "thumb_key" text;--> statement-breakpoint
CREATE INDEX "media_items_preview_pending_idx" ON "media_items" USING btree ("created_at") WHERE "media_items"."preview" = 'pending';