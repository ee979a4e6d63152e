CREATE TABLE "activation_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"name" text NOT NULL,
	"template_id" uuid,
	"template_name" text NOT NULL,
	"mode" text NOT NULL,
	"body" text NOT NULL,
	"audience" jsonb NOT NULL,
	"status" text NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "activation_sends" (
	"event_id" uuid NOT NULL,
	"customer_id" bigint NOT NULL,
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"leased_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activation_sends_event_id_customer_id_pk" PRIMARY KEY("event_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "activation_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"body" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activation_events" ADD CONSTRAINT "activation_events_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_events" ADD CONSTRAINT "activation_events_template_id_activation_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."activation_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_events" ADD CONSTRAINT "activation_events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_sends" ADD CONSTRAINT "activation_sends_event_id_activation_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."activation_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_sends" ADD CONSTRAINT "activation_sends_customer_id_chat_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."chat_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_templates" ADD CONSTRAINT "activation_templates_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_templates" ADD CONSTRAINT "activation_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activation_events_scene_idx" ON "activation_events" USING btree ("space_id","scene_id","created_at");--> statement-breakpoint
CREATE INDEX "activation_events_due_idx" ON "activation_events" USING btree ("send_at") WHERE status in ('scheduled', 'sending');--> statement-breakpoint
CREATE INDEX "activation_sends_scene_idx" ON "activation_sends" USING btree ("space_id","scene_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "activation_sends_customer_idx" ON "activation_sends" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "activation_templates_name_key" ON "activation_templates" USING btree ("space_id","scene_id",lower("name"));