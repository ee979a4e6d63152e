ALTER TABLE "knowledge_units" ADD COLUMN "upload_batch" uuid;--> statement-breakpoint
CREATE INDEX "knowledge_units_batch_idx" ON "knowledge_units" USING btree ("upload_batch");