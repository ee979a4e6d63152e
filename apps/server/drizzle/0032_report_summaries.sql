CREATE TABLE "report_customer_hours" (
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"customers" integer NOT NULL,
	CONSTRAINT "report_customer_hours_space_id_scene_id_hour_pk" PRIMARY KEY("space_id","scene_id","hour")
);
--> statement-breakpoint
CREATE TABLE "report_customers" (
	"customer_id" bigint PRIMARY KEY NOT NULL,
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_message_hours" (
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"send_type" text NOT NULL,
	"messages" integer NOT NULL,
	CONSTRAINT "report_message_hours_space_id_scene_id_hour_send_type_pk" PRIMARY KEY("space_id","scene_id","hour","send_type")
);
--> statement-breakpoint
CREATE TABLE "report_session_hours" (
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sessions" integer NOT NULL,
	"asked" integer NOT NULL,
	"replied" integer NOT NULL,
	"handed_over" integer NOT NULL,
	"ai_resolved" integer NOT NULL,
	"response_ms" bigint NOT NULL,
	"within_1m" integer NOT NULL,
	"within_5m" integer NOT NULL,
	"within_30m" integer NOT NULL,
	CONSTRAINT "report_session_hours_space_id_scene_id_hour_pk" PRIMARY KEY("space_id","scene_id","hour")
);
--> statement-breakpoint
CREATE TABLE "report_sessions" (
	"conversation_id" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	"messages" integer NOT NULL,
	"first_customer_at" timestamp with time zone,
	"first_reply_at" timestamp with time zone,
	"human" boolean NOT NULL,
	CONSTRAINT "report_sessions_conversation_id_started_at_pk" PRIMARY KEY("conversation_id","started_at")
);
--> statement-breakpoint
CREATE TABLE "report_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_customer_hours" ADD CONSTRAINT "report_customer_hours_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_customers" ADD CONSTRAINT "report_customers_customer_id_chat_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."chat_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_message_hours" ADD CONSTRAINT "report_message_hours_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_session_hours" ADD CONSTRAINT "report_session_hours_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sessions" ADD CONSTRAINT "report_sessions_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_customers_scene_idx" ON "report_customers" USING btree ("space_id","scene_id","first_at");--> statement-breakpoint
CREATE INDEX "report_sessions_scene_idx" ON "report_sessions" USING btree ("space_id","scene_id","started_at");