CREATE TABLE "profile_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "profile_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" bigint NOT NULL,
	"field_id" uuid NOT NULL,
	"old_value" text,
	"new_value" text,
	"source" text NOT NULL,
	"actor_id" uuid,
	"actor_label" text DEFAULT '' NOT NULL,
	"message_id" bigint,
	"reverted_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_fields" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"ai_extract" boolean DEFAULT false NOT NULL,
	"ai_overwrite" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_values" (
	"customer_id" bigint NOT NULL,
	"field_id" uuid NOT NULL,
	"value" text NOT NULL,
	"value_number" numeric,
	"value_date" date,
	"source" text NOT NULL,
	"updated_by" uuid,
	"updated_by_label" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_values_customer_id_field_id_pk" PRIMARY KEY("customer_id","field_id")
);
--> statement-breakpoint
ALTER TABLE "profile_changes" ADD CONSTRAINT "profile_changes_customer_id_chat_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."chat_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_changes" ADD CONSTRAINT "profile_changes_field_id_profile_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."profile_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_changes" ADD CONSTRAINT "profile_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_changes" ADD CONSTRAINT "profile_changes_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_fields" ADD CONSTRAINT "profile_fields_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_fields" ADD CONSTRAINT "profile_fields_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_values" ADD CONSTRAINT "profile_values_customer_id_chat_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."chat_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_values" ADD CONSTRAINT "profile_values_field_id_profile_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."profile_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_values" ADD CONSTRAINT "profile_values_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_changes_customer_idx" ON "profile_changes" USING btree ("customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "profile_changes_field_idx" ON "profile_changes" USING btree ("customer_id","field_id","id");--> statement-breakpoint
CREATE INDEX "profile_changes_field_id_idx" ON "profile_changes" USING btree ("field_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_fields_name_key" ON "profile_fields" USING btree ("space_id","scene_id",lower("name"));--> statement-breakpoint
CREATE INDEX "profile_fields_scene_idx" ON "profile_fields" USING btree ("space_id","scene_id","position");--> statement-breakpoint
CREATE INDEX "profile_values_field_value_idx" ON "profile_values" USING btree ("field_id",left("value", 100));--> statement-breakpoint
CREATE INDEX "profile_values_field_number_idx" ON "profile_values" USING btree ("field_id","value_number") WHERE value_number is not null;--> statement-breakpoint
CREATE INDEX "profile_values_field_date_idx" ON "profile_values" USING btree ("field_id","value_date") WHERE value_date is not null;