CREATE TABLE "profile_extractions" (
	"conversation_id" bigint PRIMARY KEY NOT NULL,
	"last_message_id" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"model" text DEFAULT '' NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"kept" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profile_extractions" ADD CONSTRAINT "profile_extractions_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;