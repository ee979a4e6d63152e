CREATE TABLE "chat_conversations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_conversations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"source_id" text NOT NULL,
	"chat_type" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"channel_id" text DEFAULT '' NOT NULL,
	"channel_name" text DEFAULT '' NOT NULL,
	"customer_id" bigint,
	"last_message_id" bigint,
	"first_message_at" timestamp with time zone NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"unread" integer DEFAULT 0 NOT NULL,
	"handler_state" text DEFAULT 'none' NOT NULL,
	"servicer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_customers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_customers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"source_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"avatar_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_ingest_signatures" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"conversation_id" bigint NOT NULL,
	"source_msg_id" text NOT NULL,
	"send_type" text NOT NULL,
	"sender_name" text DEFAULT '' NOT NULL,
	"display_type" text NOT NULL,
	"source_kind" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_vector" "tsvector" NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"fail_reason" text,
	"recalled" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_scene_settings" (
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"ingest_id" text,
	"ingest_secret_sealed" text,
	"ingest_secret_prefix" text,
	"last_ingest_at" timestamp with time zone,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_scene_settings_space_id_scene_id_pk" PRIMARY KEY("space_id","scene_id")
);
--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_customer_id_chat_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."chat_customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_customers" ADD CONSTRAINT "chat_customers_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_scene_settings" ADD CONSTRAINT "chat_scene_settings_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_scene_settings" ADD CONSTRAINT "chat_scene_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_conversations_source_key" ON "chat_conversations" USING btree ("space_id","scene_id","source_id");--> statement-breakpoint
CREATE INDEX "chat_conversations_recent_idx" ON "chat_conversations" USING btree ("space_id","scene_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chat_conversations_customer_idx" ON "chat_conversations" USING btree ("customer_id","last_message_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "chat_customers_source_key" ON "chat_customers" USING btree ("space_id","scene_id","source_id");--> statement-breakpoint
CREATE INDEX "chat_ingest_signatures_expires_idx" ON "chat_ingest_signatures" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_source_key" ON "chat_messages" USING btree ("space_id","scene_id","source_msg_id");--> statement-breakpoint
CREATE INDEX "chat_messages_thread_idx" ON "chat_messages" USING btree ("conversation_id","sent_at","id");--> statement-breakpoint
CREATE INDEX "chat_messages_send_type_idx" ON "chat_messages" USING btree ("space_id","scene_id","send_type","sent_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chat_messages_search_idx" ON "chat_messages" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_scene_settings_ingest_key" ON "chat_scene_settings" USING btree ("ingest_id");