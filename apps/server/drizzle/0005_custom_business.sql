CREATE TABLE "custom_business_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"request_id" uuid,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_business_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"requester_id" uuid NOT NULL,
	"title" text NOT NULL,
	"scenario" text NOT NULL,
	"requirements" text NOT NULL,
	"contact_name" text NOT NULL,
	"contact_phone" text,
	"contact_email" text,
	"budget_range" text NOT NULL,
	"expected_date" date,
	"status" text NOT NULL,
	"quote_fen" bigint,
	"quote_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_business_status_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" uuid NOT NULL,
	"by_operator" boolean DEFAULT false NOT NULL,
	"note" text,
	"quote_fen" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "custom_business_attachments" ADD CONSTRAINT "custom_business_attachments_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_business_attachments" ADD CONSTRAINT "custom_business_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_business_attachments" ADD CONSTRAINT "custom_business_attachments_request_id_custom_business_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."custom_business_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_business_requests" ADD CONSTRAINT "custom_business_requests_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_business_requests" ADD CONSTRAINT "custom_business_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_business_status_history" ADD CONSTRAINT "custom_business_status_history_request_id_custom_business_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."custom_business_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_business_status_history" ADD CONSTRAINT "custom_business_status_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_business_attachments_request_idx" ON "custom_business_attachments" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "custom_business_attachments_uploader_idx" ON "custom_business_attachments" USING btree ("uploaded_by","created_at");--> statement-breakpoint
CREATE INDEX "custom_business_requests_space_idx" ON "custom_business_requests" USING btree ("space_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_business_requests_status_idx" ON "custom_business_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "custom_business_requests_created_idx" ON "custom_business_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "custom_business_history_request_idx" ON "custom_business_status_history" USING btree ("request_id","id");