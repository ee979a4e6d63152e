CREATE TABLE "customer_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customer_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"customer_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"source_key" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"amount_fen" bigint,
	"conversation_id" bigint,
	"message_id" bigint,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "satisfaction_settings" (
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"head" text NOT NULL,
	"options" jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "satisfaction_settings_space_id_scene_id_pk" PRIMARY KEY("space_id","scene_id")
);
--> statement-breakpoint
CREATE TABLE "satisfaction_surveys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "satisfaction_surveys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"conversation_id" bigint NOT NULL,
	"customer_id" bigint,
	"servicer" text,
	"agent_id" uuid,
	"state" text NOT NULL,
	"fail_reason" text,
	"score" smallint,
	"rated_at" timestamp with time zone,
	"requested_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_events" ADD CONSTRAINT "customer_events_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_events" ADD CONSTRAINT "customer_events_customer_id_chat_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."chat_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_events" ADD CONSTRAINT "customer_events_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "satisfaction_settings" ADD CONSTRAINT "satisfaction_settings_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "satisfaction_settings" ADD CONSTRAINT "satisfaction_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "satisfaction_surveys" ADD CONSTRAINT "satisfaction_surveys_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "satisfaction_surveys" ADD CONSTRAINT "satisfaction_surveys_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "satisfaction_surveys" ADD CONSTRAINT "satisfaction_surveys_customer_id_chat_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."chat_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_events_source_key" ON "customer_events" USING btree ("space_id","scene_id","source_key");--> statement-breakpoint
CREATE INDEX "customer_events_customer_idx" ON "customer_events" USING btree ("customer_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "satisfaction_surveys_scene_idx" ON "satisfaction_surveys" USING btree ("space_id","scene_id","requested_at");--> statement-breakpoint
CREATE INDEX "satisfaction_surveys_customer_idx" ON "satisfaction_surveys" USING btree ("customer_id","requested_at");