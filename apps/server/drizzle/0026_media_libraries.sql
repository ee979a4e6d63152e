CREATE TABLE "media_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"library_id" uuid NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"description" text DEFAULT '' NOT NULL,
	"aux_image_key" text,
	"storage_key" text NOT NULL,
	"sha256" text,
	"duration_ms" integer,
	"width" integer,
	"height" integer,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "media_libraries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"group_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"space_id" uuid NOT NULL,
	"library_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"offset" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_groups" ADD CONSTRAINT "media_groups_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_groups" ADD CONSTRAINT "media_groups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_library_id_media_libraries_id_fk" FOREIGN KEY ("library_id") REFERENCES "public"."media_libraries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_libraries" ADD CONSTRAINT "media_libraries_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_libraries" ADD CONSTRAINT "media_libraries_group_id_media_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."media_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_libraries" ADD CONSTRAINT "media_libraries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD CONSTRAINT "media_uploads_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD CONSTRAINT "media_uploads_library_id_media_libraries_id_fk" FOREIGN KEY ("library_id") REFERENCES "public"."media_libraries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD CONSTRAINT "media_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_groups_space_name_idx" ON "media_groups" USING btree ("space_id","name");--> statement-breakpoint
CREATE INDEX "media_items_library_time_idx" ON "media_items" USING btree ("library_id","created_at","id");--> statement-breakpoint
CREATE INDEX "media_items_library_name_idx" ON "media_items" USING btree ("library_id","name");--> statement-breakpoint
CREATE INDEX "media_items_library_size_idx" ON "media_items" USING btree ("library_id","size");--> statement-breakpoint
CREATE INDEX "media_items_space_idx" ON "media_items" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "media_items_trash_idx" ON "media_items" USING btree ("deleted_at") WHERE "media_items"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "media_libraries_space_idx" ON "media_libraries" USING btree ("space_id","created_at");--> statement-breakpoint
CREATE INDEX "media_libraries_group_idx" ON "media_libraries" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "media_uploads_space_idx" ON "media_uploads" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "media_uploads_expires_idx" ON "media_uploads" USING btree ("expires_at");