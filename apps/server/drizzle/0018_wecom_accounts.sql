CREATE TABLE "wecom_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"scene_id" integer NOT NULL,
	"corp_id" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"token_sealed" text NOT NULL,
	"aes_key_sealed" text NOT NULL,
	"callback_id" text NOT NULL,
	"verified_at" timestamp with time zone,
	"last_pull_at" timestamp with time zone,
	"last_error" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wecom_cursors" (
	"account_id" uuid NOT NULL,
	"open_kfid" text NOT NULL,
	"cursor" text DEFAULT '' NOT NULL,
	"pulling_until" timestamp with time zone,
	"pending_sync_token" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wecom_cursors_account_id_open_kfid_pk" PRIMARY KEY("account_id","open_kfid")
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "source_media_id" text;--> statement-breakpoint
ALTER TABLE "wecom_accounts" ADD CONSTRAINT "wecom_accounts_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wecom_accounts" ADD CONSTRAINT "wecom_accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wecom_cursors" ADD CONSTRAINT "wecom_cursors_account_id_wecom_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."wecom_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wecom_accounts_scene_key" ON "wecom_accounts" USING btree ("space_id","scene_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wecom_accounts_callback_key" ON "wecom_accounts" USING btree ("callback_id");