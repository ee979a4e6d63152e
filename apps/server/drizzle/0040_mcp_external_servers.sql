CREATE TABLE "mcp_external_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"server_id" uuid NOT NULL,
	"tool_name" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"user_id" uuid,
	"ok" boolean NOT NULL,
	"error_key" text DEFAULT '' NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_external_servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"transport" text NOT NULL,
	"header_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"headers_sealed" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tools_read_at" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL,
	"last_error_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_external_calls" ADD CONSTRAINT "mcp_external_calls_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_external_calls" ADD CONSTRAINT "mcp_external_calls_server_id_mcp_external_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_external_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_external_calls" ADD CONSTRAINT "mcp_external_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_external_servers" ADD CONSTRAINT "mcp_external_servers_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_external_servers" ADD CONSTRAINT "mcp_external_servers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_external_calls_server_idx" ON "mcp_external_calls" USING btree ("server_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_external_servers_name_key" ON "mcp_external_servers" USING btree ("space_id","name");