CREATE TABLE "billing_settings" (
	"space_id" uuid PRIMARY KEY NOT NULL,
	"low_balance_threshold" bigint
);
--> statement-breakpoint
CREATE TABLE "recharge_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"out_trade_no" text NOT NULL,
	"channel" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"code_url" text,
	"provider_trade_no" text,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"failure_reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	CONSTRAINT "recharge_orders_amount_positive" CHECK ("recharge_orders"."amount" > 0),
	CONSTRAINT "recharge_orders_status" CHECK (status in ('created', 'paying', 'paid', 'closed', 'failed')),
	CONSTRAINT "recharge_orders_channel" CHECK (channel in ('wechat', 'alipay', 'dev')),
	CONSTRAINT "recharge_orders_refunded_range" CHECK ("recharge_orders"."refunded" >= 0 and "recharge_orders"."refunded" <= "recharge_orders"."amount")
);
--> statement-breakpoint
CREATE TABLE "platform_models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"model_name" text NOT NULL,
	"version" text NOT NULL,
	"base_url" text NOT NULL,
	"api_key_encrypted" text NOT NULL,
	"api_key_masked" text NOT NULL,
	"purpose" text DEFAULT 'chat' NOT NULL,
	"input_price" integer NOT NULL,
	"output_price" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_accounts" (
	"space_id" uuid PRIMARY KEY NOT NULL,
	"fee_millifen" bigint DEFAULT 0 NOT NULL,
	"charged_fen" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_holds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"space_id" uuid NOT NULL,
	"amount_millifen" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_holds_amount_positive" CHECK ("usage_holds"."amount_millifen" > 0)
);
--> statement-breakpoint
ALTER TABLE "llm_usage" ADD COLUMN "subject_kind" text;--> statement-breakpoint
ALTER TABLE "llm_usage" ADD COLUMN "subject_id" text;--> statement-breakpoint
ALTER TABLE "llm_usage" ADD COLUMN "platform_model_id" uuid;--> statement-breakpoint
ALTER TABLE "llm_usage" ADD COLUMN "input_price" integer;--> statement-breakpoint
ALTER TABLE "llm_usage" ADD COLUMN "output_price" integer;--> statement-breakpoint
ALTER TABLE "llm_usage" ADD COLUMN "fee_millifen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_accounts" ADD CONSTRAINT "usage_accounts_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_holds" ADD CONSTRAINT "usage_holds_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "recharge_orders_out_trade_no" ON "recharge_orders" USING btree ("out_trade_no");--> statement-breakpoint
CREATE INDEX "recharge_orders_space_idx" ON "recharge_orders" USING btree ("space_id","created_at");--> statement-breakpoint
CREATE INDEX "recharge_orders_open_idx" ON "recharge_orders" USING btree ("checked_at") WHERE status in ('created', 'paying');--> statement-breakpoint
CREATE INDEX "usage_holds_space_idx" ON "usage_holds" USING btree ("space_id","expires_at");