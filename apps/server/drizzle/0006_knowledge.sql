CREATE TABLE "knowledge_bases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"group_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'normal' NOT NULL,
	"embedding_model_key_id" uuid,
	"retrieval" jsonb NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_segments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"knowledge_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question" text DEFAULT '' NOT NULL,
	"answer" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"search_question" text DEFAULT '' NOT NULL,
	"search_body" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', search_question), 'A') || setweight(to_tsvector('simple', search_body), 'B')) STORED,
	"enabled" boolean DEFAULT true NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"hit_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_units" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"knowledge_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"file_kind" text NOT NULL,
	"size" integer NOT NULL,
	"content_hash" text NOT NULL,
	"storage_key" text NOT NULL,
	"status" text DEFAULT 'not_indexed' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"error_detail" text,
	"chunking" jsonb NOT NULL,
	"table_mode" jsonb,
	"columns" jsonb,
	"segment_count" integer DEFAULT 0 NOT NULL,
	"token_count" integer DEFAULT 0 NOT NULL,
	"run_id" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"indexed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "citations" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_group_id_knowledge_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."knowledge_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_embedding_model_key_id_model_keys_id_fk" FOREIGN KEY ("embedding_model_key_id") REFERENCES "public"."model_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_groups" ADD CONSTRAINT "knowledge_groups_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_groups" ADD CONSTRAINT "knowledge_groups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_segments" ADD CONSTRAINT "knowledge_segments_knowledge_id_knowledge_bases_id_fk" FOREIGN KEY ("knowledge_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_segments" ADD CONSTRAINT "knowledge_segments_unit_id_knowledge_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."knowledge_units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_units" ADD CONSTRAINT "knowledge_units_knowledge_id_knowledge_bases_id_fk" FOREIGN KEY ("knowledge_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_units" ADD CONSTRAINT "knowledge_units_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_bases_space_idx" ON "knowledge_bases" USING btree ("space_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_groups_space_idx" ON "knowledge_groups" USING btree ("space_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_segments_position_key" ON "knowledge_segments" USING btree ("unit_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_segments_base_idx" ON "knowledge_segments" USING btree ("knowledge_id","unit_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_segments_search_idx" ON "knowledge_segments" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "knowledge_units_base_idx" ON "knowledge_units" USING btree ("knowledge_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_units_hash_key" ON "knowledge_units" USING btree ("knowledge_id","content_hash");--> statement-breakpoint
CREATE INDEX "knowledge_units_status_idx" ON "knowledge_units" USING btree ("status","lease_expires_at");